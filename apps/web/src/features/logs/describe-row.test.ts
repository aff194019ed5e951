import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CODES, AUDIT_SYSTEM_USER, type AuditRow } from '@rastro/domain/audit';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import i18next from '../../i18n/translator.ts';
import { actorName, changeValue, describeRow, type NameOf } from './describe-row.ts';

const t = i18next.t.bind(i18next);
const row = (fields: Partial<AuditRow>): AuditRow => ({
  id: 1, created_at: '2024-05-01T12:00:00.000Z', code: 101, userId: 1, username: 'admin', userIp: '10.0.0.1', userAgent: null,
  objectType: 'user', objectId: 1, data: null, old: null, status: 200, ...fields,
});
const names: NameOf = (type, id) => (type === 'device' && id === 7 ? 'Caminhão 7' : null);

beforeAll(() => initTestI18n('pt-BR'));

describe('log descriptions', () => {
  it('has a sentence for every action of the code table, in every language', () => {
    const actions = new Set<string>(Object.values(AUDIT_CODES).map((c) => c.action));
    // 101 and 301 each read two ways; a refused login reads differently.
    for (const extra of ['userCreated', 'loginFailed', 'deviceCreated', 'deviceEdited', 'unknown']) actions.add(extra);
    for (const language of ['pt-BR', 'es', 'en'] as const) {
      const table = texts[language].logs.actions as Record<string, string>;
      for (const action of actions) expect(table[action], `${language} logs.actions.${action}`).toBeTruthy();
      const objects = texts[language].logs.objects as Record<string, string>;
      for (const type of new Set(Object.values(AUDIT_CODES).map((c) => c.objectType))) expect(objects[type], `${language} ${type}`).toBeTruthy();
    }
  });

  it('tells a login from a refused one and from a user created under the same code', () => {
    expect(describeRow(row({ data: { email: 'admin' } }), t, names)).toEqual({ text: 'Entrou', changes: [], failed: false });
    const refused = describeRow(row({ userId: null, username: 'ana@x.com', status: 401, data: { email: 'ana@x.com' } }), t, names);
    expect(refused).toEqual({ text: 'Entrada recusada para ana@x.com', changes: [], failed: true });
    expect(describeRow(row({ objectId: 9, data: { id: 9, name: 'Ana Souza', email: 'ana@x.com' } }), t, names).text).toBe('Criou o usuário Ana Souza');
  });

  it('lists the changed fields of an edit, nested attributes by key', () => {
    const edited = describeRow(row({
      code: 301, objectType: 'device', objectId: 7,
      old: { id: 7, name: 'Caminhão 7', phone: null, attributes: { speedLimit: 80, color: 'red' } },
      data: { id: 7, name: 'Caminhão 7', phone: '5511999', attributes: { speedLimit: 90, color: 'red' } },
    }), t, names);
    expect(edited.text).toBe('Editou o dispositivo Caminhão 7');
    expect(edited.changes).toEqual([
      { field: 'attributes.speedLimit', before: 80, after: 90 },
      { field: 'phone', before: null, after: '5511999' },
    ]);
    expect(describeRow(row({ code: 301, objectType: 'device', objectId: 7, data: { id: 7, name: 'Novo' } }), t, names).text).toBe('Criou o dispositivo Novo');
  });

  it('names objects known only by id from the session, else by their id', () => {
    expect(describeRow(row({ code: 201, objectType: 'device', objectId: 7, data: { type: 'engineStop', deviceId: 7 }, status: 202 }), t, names))
      .toEqual({ text: 'Enviou o comando engineStop para Caminhão 7', changes: [], failed: false });
    expect(describeRow(row({ code: 302, objectType: 'device', objectId: 8, old: { id: 8, name: 'Moto' }, status: 204 }), t, names).text)
      .toBe('Removeu o dispositivo Moto');
    expect(describeRow(row({ code: 405, objectType: 'device', objectId: 12, status: 200 }), t, names).text).toBe('Ancorou #12');
  });

  it('reads a link body as its two sides, the owner being the user, device or group', () => {
    const linked = describeRow(row({ code: 901, objectType: 'user', objectId: 3, data: { userId: 3, deviceId: 7 }, status: 204 }), t, names);
    expect(linked.text).toBe('Vinculou dispositivo Caminhão 7 a usuário #3');
    const unlinked = describeRow(row({ code: 902, objectType: 'device', objectId: 7, data: { geofenceId: 4, deviceId: 7 }, status: 204 }), t, names);
    expect(unlinked.text).toBe('Desvinculou cerca #4 de dispositivo Caminhão 7');
  });

  it('falls back for a code it does not know, and names the system and empty values', () => {
    expect(describeRow(row({ code: 999, objectType: null, objectId: 5 }), t, names).text).toBe('Ação 999 em #5');
    expect(actorName(row({ username: AUDIT_SYSTEM_USER, userId: null }), t)).toBe('Sistema');
    expect(actorName(row({ username: null, userId: 4 }), t)).toBe('#4');
    expect(changeValue(undefined, t)).toBe('(vazio)');
    expect(changeValue('', t)).toBe('(vazio)');
    expect(changeValue(true, t)).toBe(texts['pt-BR'].collection.yes);
    expect(changeValue({ a: 'x'.repeat(200) }, t)).toHaveLength(118);
  });
});
