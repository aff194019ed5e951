// The related-objects dialog (tarkan-reference §3.13.19): every object of one type with a
// checkbox telling whether it is linked to the owner (a user, device or group). Each toggle is
// sent at once (POST / DELETE /api/permissions); a refusal puts that checkbox back and says
// why. "Select all" / "clear all" act on the objects the search shows, in one bulk request.
// Loading both lists is given a time limit: past it the dialog says the operation took too
// long instead of spinning forever (tens of thousands of objects on a slow link).
import { useId, useMemo, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Group, Loader, Modal, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from '../../i18n/use-translation.ts';
import { isDeletedDevice } from '@rastro/domain/device-filters';
import { api } from '../../api/http.ts';
import { filterItems } from './collection-search.ts';
import { linkBody, type LinkedType, type Owner } from './link-kinds.ts';
import { saveErrorText } from './save-error.ts';
import './collection.css';

/** How long loading the objects and the links may take before the dialog gives up. */
export const LINK_LOAD_LIMIT_MS = 30_000;
const ROW_HEIGHT = 40;

export interface LinkableObject {
  id: number;
  name?: string;
  description?: string | null;
  email?: string;
  uniqueId?: string;
  attributes?: Record<string, unknown>;
}

export class LoadTimeout extends Error {}

/** Every object of the type, and the ids of those linked to the owner, within `limitMs`. */
export async function loadLinks(type: LinkedType, owner: Owner, limitMs: number, outer?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; controller.abort(); }, limitMs);
  outer?.addEventListener('abort', () => controller.abort(), { once: true });
  const get = async (query: Record<string, string | number | boolean>) =>
    (await api.raw<LinkableObject[]>(`/${type}`, { query, signal: controller.signal, timeoutMs: limitMs + 1_000 })).data;
  try {
    const [all, linked] = await Promise.all([get({ all: true }), get({ [owner.key]: owner.id })]);
    // Devices "deleted" by renaming (safe-mode deletion) are not offered.
    const objects = type === 'devices' ? all.filter((o) => !isDeletedDevice({ uniqueId: o.uniqueId ?? '' })) : all;
    return { objects, linked: new Set(linked.map((o) => o.id)) };
  } catch (err) {
    throw timedOut ? new LoadTimeout() : err;
  } finally {
    clearTimeout(timer);
  }
}

export const objectLabel = (o: LinkableObject) => o.name || o.description || o.email || `#${o.id}`;

export interface RelatedPickerProps {
  opened: boolean;
  onClose(): void;
  owner: Owner;
  type: LinkedType;
  /** e.g. "Geofences of João". */
  title: string;
  limitMs?: number;
}

function PickerBody({ owner, type, limitMs }: { owner: Owner; type: LinkedType; limitMs: number }) {
  const { t } = useTranslation();
  const listId = useId();
  const [query, setQuery] = useState('');
  // What the user changed since loading, by object id (true = linked); failures are removed.
  const [changed, setChanged] = useState<Map<number, boolean>>(new Map());
  const [pending, setPending] = useState<Set<number>>(new Set());
  const [failure, setFailure] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const load = useQuery({
    queryKey: ['related', type, owner.key, owner.id],
    queryFn: ({ signal }) => loadLinks(type, owner, limitMs, signal),
    retry: false,
    gcTime: 0,
  });
  const objects = useMemo(() => filterItems(load.data?.objects ?? [], query), [load.data, query]);
  const isLinked = (id: number) => changed.get(id) ?? load.data?.linked.has(id) ?? false;

  const virtualizer = useVirtualizer({
    count: objects.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (i) => objects[i]!.id,
    overscan: 8,
  });

  /** Applies `linked` to `ids` on screen, sends it, and puts them back if the server refuses. */
  async function apply(ids: number[], linked: boolean) {
    if (ids.length === 0) return;
    const before = new Map(ids.map((id) => [id, isLinked(id)]));
    setFailure(null);
    setChanged((m) => new Map([...m, ...ids.map((id) => [id, linked] as const)]));
    setPending((p) => new Set([...p, ...ids]));
    try {
      if (ids.length === 1) {
        const body = linkBody(owner, type, ids[0]!);
        if (linked) await api.post('/permissions', body);
        else await api.raw('/permissions', { method: 'DELETE', json: body });
      } else {
        await api.raw('/permissions/bulk', { method: linked ? 'POST' : 'DELETE', json: ids.map((id) => linkBody(owner, type, id)) });
      }
    } catch (err) {
      setChanged((m) => new Map([...m, ...before]));
      setFailure(saveErrorText(t, err));
    } finally {
      setPending((p) => new Set([...p].filter((id) => !before.has(id))));
    }
  }

  if (load.isPending) {
    return <div className="cl-state" role="status"><Loader size="sm" aria-hidden="true" /><span>{t('collection.loading')}</span></div>;
  }
  if (load.isError) {
    return (
      <Alert color="red" role="alert">
        {load.error instanceof LoadTimeout ? t('collection.tooSlow') : saveErrorText(t, load.error)}
        <Button size="xs" variant="light" ml="sm" onClick={() => void load.refetch()}>{t('collection.retry')}</Button>
      </Alert>
    );
  }
  const shownIds = objects.map((o) => o.id);
  const linkedCount = shownIds.filter(isLinked).length;
  return (
    <div className="rp">
      <TextInput type="search" value={query} onChange={(e) => setQuery(e.currentTarget.value)}
        aria-label={t('collection.searchObjects')} placeholder={t('collection.searchPlaceholder')} />
      <Group justify="space-between" my="xs" wrap="wrap" gap="xs">
        <span className="cl-count" aria-live="polite">{t('collection.linkedCount', { linked: linkedCount, count: objects.length })}</span>
        <Group gap="xs">
          <Button size="xs" variant="light" disabled={linkedCount === objects.length}
            onClick={() => void apply(shownIds.filter((id) => !isLinked(id)), true)}>{t('collection.selectAll')}</Button>
          <Button size="xs" variant="light" disabled={linkedCount === 0}
            onClick={() => void apply(shownIds.filter(isLinked), false)}>{t('collection.clearAll')}</Button>
        </Group>
      </Group>
      {failure && <Alert color="red" role="alert" mb="xs" data-testid="link-failure">{failure}</Alert>}
      {objects.length === 0 ? (
        <p className="cl-state" role="status">{load.data.objects.length === 0 ? t('collection.empty') : t('collection.noMatch')}</p>
      ) : (
        <div ref={scrollRef} className="rp-scroll" role="group" aria-labelledby={`${listId}-title`}>
          <span id={`${listId}-title`} hidden>{t('collection.objects')}</span>
          <div className="cl-rows" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((v) => {
              const o = objects[v.index]!;
              return (
                <div key={v.key} className="rp-row" style={{ height: v.size, transform: `translateY(${v.start}px)` }}>
                  <Checkbox label={objectLabel(o)} checked={isLinked(o.id)} disabled={pending.has(o.id)}
                    onChange={(e) => void apply([o.id], e.currentTarget.checked)} />
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}

export function RelatedPicker({ opened, onClose, owner, type, title, limitMs = LINK_LOAD_LIMIT_MS }: RelatedPickerProps) {
  const { t } = useTranslation();
  const mobile = useMediaQuery('(max-width: 768px)');
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="md" fullScreen={mobile} zIndex={300}
      closeButtonProps={{ 'aria-label': t('collection.close') }}>
      {opened && <PickerBody owner={owner} type={type} limitMs={limitMs} />}
    </Modal>
  );
}
