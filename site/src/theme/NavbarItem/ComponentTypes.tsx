/**
 * The navbar item types this site uses. The stock map imports every type (locale and version
 * dropdowns, dropdown menus…), and all of them end up in main.js, which every first visit
 * downloads. An item of another type in docusaurus.config.ts fails the build with Docusaurus's
 * "No NavbarItem component found for type" error: add the type here then.
 */
import DefaultNavbarItem from '@theme/NavbarItem/DefaultNavbarItem';
import DocNavbarItem from '@theme/NavbarItem/DocNavbarItem';
import SearchNavbarItem from '@theme/NavbarItem/SearchNavbarItem';
import type {ComponentTypesObject} from '@theme/NavbarItem/ComponentTypes';

const ComponentTypes = {
  default: DefaultNavbarItem,
  doc: DocNavbarItem,
  search: SearchNavbarItem,
} as Partial<ComponentTypesObject> as ComponentTypesObject;

export default ComponentTypes;
