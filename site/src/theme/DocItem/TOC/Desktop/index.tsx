/** Docusaurus's table of contents beside the article, kept as server markup while a phone hydrates (src/hidden-on-phone). */
import React, {type ReactNode} from 'react';
import {ThemeClassNames} from '@docusaurus/theme-common';
import Original from '@theme-original/DocItem/TOC/Desktop';
import type OriginalType from '@theme/DocItem/TOC/Desktop';
import type {WrapperProps} from '@docusaurus/types';
import HiddenOnPhone from '../../../../hidden-on-phone';

export default function DocItemTOCDesktopWrapper(props: WrapperProps<typeof OriginalType>): ReactNode {
  return (
    <HiddenOnPhone selector={`.${ThemeClassNames.docs.docTocDesktop}`}>
      <Original {...props} />
    </HiddenOnPhone>
  );
}
