// What other features use from sign-in: signing out, and the server info the maintenance screen polls.
export { signOut } from './session.ts';
export { loadServerInfo } from './auth-api.ts';
