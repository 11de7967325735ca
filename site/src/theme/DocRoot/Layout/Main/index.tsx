/** The docs column (<main>), hydrated in a task of its own on the first page (src/deferred-hydration). */
import React, {type ReactNode} from 'react';
import Main from '@theme-original/DocRoot/Layout/Main';
import type {Props} from '@theme/DocRoot/Layout/Main';
import DeferredHydration from '../../../../deferred-hydration';

export default function MainWrapper(props: Props): ReactNode {
  return (
    <DeferredHydration>
      <Main {...props} />
    </DeferredHydration>
  );
}
