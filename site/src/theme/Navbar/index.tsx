/** The stock navbar, hydrated in a task of its own on the first page (src/deferred-hydration). */
import React, {type ReactNode} from 'react';
import Navbar from '@theme-original/Navbar';
import DeferredHydration from '../../deferred-hydration';

export default function NavbarWrapper(): ReactNode {
  return (
    <DeferredHydration>
      <Navbar />
    </DeferredHydration>
  );
}
