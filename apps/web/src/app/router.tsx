// The route table of spec §2. Every screen loads lazily; unknown paths go to /home.
import { createBrowserRouter, Navigate } from 'react-router';

export const router = createBrowserRouter([
  { path: '/login', lazy: () => import('../features/auth/login-page.tsx') },
  { path: '/motorista', lazy: () => import('../features/auth/login-page.tsx') },
  { path: '/share/:token', lazy: () => import('../features/auth/login-page.tsx') },
  { path: '*', element: <Navigate to="/login" replace /> },
]);
