/** The published site: every override of site/overrides.json kept (site-config.ts). */
import {createSiteConfig} from './site-config';

export default createSiteConfig();
