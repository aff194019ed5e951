// The user editor (features/user-editor) as the users manager opens it for add and edit:
// loaded on first use, so the list does not carry the editor's code and texts until then.
import { lazy } from 'react';

export const UserEditor = lazy(() => import('../user-editor/index.ts').then((m) => ({ default: m.UserEditorDialog })));
