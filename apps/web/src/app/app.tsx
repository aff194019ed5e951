import { RouterProvider } from 'react-router/dom';
import { router } from './router.tsx';

/** Public screens render without the component library; the signed-in shell brings it in lazily. */
export function App() {
  return <RouterProvider router={router} />;
}
