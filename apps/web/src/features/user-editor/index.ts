// What other features use from the user editor: the dialog (new user or an existing one).
export { UserEditorDialog, type UserEditorDialogProps } from './user-editor-dialog.tsx';
