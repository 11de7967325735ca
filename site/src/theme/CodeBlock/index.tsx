/**
 * Docusaurus's CodeBlock without its remount after hydration. The stock component keys its content
 * on `useIsBrowser()` so that inline token colours switch to the dark Prism theme once in the
 * browser; our code colours are CSS keyed on the colour mode (plugins/code-theme.ts), so the
 * server's markup is already right and hydrating it is enough.
 */
import React, {isValidElement, type ReactNode} from 'react';
import type {Props} from '@theme/CodeBlock';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';

/** Plain string children are joined so the block can be tokenised and copied. */
function maybeStringifyChildren(children: ReactNode): ReactNode {
  if (React.Children.toArray(children).some((el) => isValidElement(el))) return children;
  return Array.isArray(children) ? children.join('') : children;
}

export default function CodeBlock({children: rawChildren, ...props}: Props): ReactNode {
  const children = maybeStringifyChildren(rawChildren);
  return typeof children === 'string' ? (
    <StringContent {...props}>{children}</StringContent>
  ) : (
    <ElementContent {...props}>{children}</ElementContent>
  );
}
