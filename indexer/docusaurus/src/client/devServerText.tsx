/** The development server's notice, shared by the modal and the /search page. */
import React, {type ReactNode} from 'react';
import Translate from '@docusaurus/Translate';

/** Why search is not there on `docusaurus start` and how to get it, in the page's locale. */
export function DevServerText(): ReactNode {
  return (
    <Translate id="theme.SearchShell.devServer" values={{build: <code>docusaurus build</code>, serve: <code>docusaurus serve</code>}}>
      {'Search is not available on the development server: the local search index is made from the built pages. Run {build} then {serve} to search.'}
    </Translate>
  );
}
