// "Logs" on a device's (or a user's) screen: opens the advanced logs of that one object, for
// those who may read them (log-access.ts). Its label is the user menu's, so the shell's texts do.
import { Button } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useSession } from '../../app/session-store.ts';
import { useShellDialog, type LogScope } from '../../app/shell/shell-dialogs.ts';
import { canReadLogs } from './log-access.ts';

export function LogsButton({ scope }: { scope: Exclude<LogScope, { kind: 'all' }> }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const info = useSession((s) => s.serverInfo);
  if (!user || !info || !canReadLogs({ user, server: { plus: info.plus, attributes: info.server.attributes } })) return null;
  return (
    <Button variant="default" size="compact-sm" style={{ alignSelf: 'flex-start' }} onClick={() => useShellDialog.getState().open({ kind: 'logs', scope })} data-testid="logs-button">
      {t('menu.user.logs')}
    </Button>
  );
}
