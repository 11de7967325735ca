/** The stock footer, hydrated in a task of its own on the first page (src/deferred-hydration). */
import React, {type ReactNode} from 'react';
import Footer from '@theme-original/Footer';
import DeferredHydration from '../../deferred-hydration';

export default function FooterWrapper(): ReactNode {
  return (
    <DeferredHydration>
      <Footer />
    </DeferredHydration>
  );
}
