/** Docusaurus's desktop sidebar, kept as server markup while a phone hydrates (src/hidden-on-phone). */
import React, {type ReactNode} from 'react';
import Original from '@theme-original/DocSidebar/Desktop';
import type OriginalType from '@theme/DocSidebar/Desktop';
import type {WrapperProps} from '@docusaurus/types';
import HiddenOnPhone from '../../../hidden-on-phone';

export default function DocSidebarDesktopWrapper(props: WrapperProps<typeof OriginalType>): ReactNode {
  return (
    <HiddenOnPhone selector=".theme-doc-sidebar-container > div > div">
      <Original {...props} />
    </HiddenOnPhone>
  );
}
