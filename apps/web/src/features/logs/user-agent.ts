// The device / OS column of the log viewer: browser, operating system and device model read
// from a User-Agent header (tarkan-reference §3.13.20 used ua-parser-js; the common cases need
// a few patterns, not a 20 KB dependency). Unknown agents give what they can (or nothing).

export interface AgentInfo {
  browser: string | null;
  browserVersion: string | null;
  os: string | null;
  osVersion: string | null;
  /** A phone or tablet model when the agent names one. */
  device: string | null;
}

const major = (version: string | undefined) => (version ? version.split('.')[0]! : null);

/** Browsers and clients, most specific first (Edge and Opera also say Chrome; Chrome says Safari). */
const BROWSERS: ReadonlyArray<[name: string, pattern: RegExp]> = [
  ['Edge', /\b(?:Edg|EdgA|EdgiOS|Edge)\/([\d.]+)/],
  ['Opera', /\b(?:OPR|OPiOS|Opera)\/([\d.]+)/],
  ['Samsung Internet', /\bSamsungBrowser\/([\d.]+)/],
  ['Yandex', /\bYaBrowser\/([\d.]+)/],
  ['Vivaldi', /\bVivaldi\/([\d.]+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome Headless', /\bHeadlessChrome\/([\d.]+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/([\d.]+)/],
  ['Chromium', /\bChromium\/([\d.]+)/],
  ['Safari', /\bVersion\/([\d.]+)(?: Mobile\/\w+)? Safari\//],
  ['Traccar Manager', /\bTraccarManager\/?([\d.]*)/i],
  ['okhttp', /\bokhttp\/([\d.]+)/],
  ['Dart', /\bDart\/([\d.]+)/],
  ['curl', /\bcurl\/([\d.]+)/],
  ['Python', /\bpython-requests\/([\d.]+)/],
  ['Node.js', /\b(?:node|undici)(?:-fetch)?(?:\/([\d.]+))?/],
  ['Postman', /\bPostmanRuntime\/([\d.]+)/],
];

const WINDOWS: Record<string, string> = { '10.0': '10', '6.3': '8.1', '6.2': '8', '6.1': '7', '6.0': 'Vista', '5.1': 'XP' };

function readOs(ua: string): Pick<AgentInfo, 'os' | 'osVersion'> {
  let m: RegExpExecArray | null;
  if ((m = /Windows NT ([\d.]+)/.exec(ua))) return { os: 'Windows', osVersion: WINDOWS[m[1]!] ?? m[1]! };
  if ((m = /Android(?: ([\d.]+))?/.exec(ua))) return { os: 'Android', osVersion: m[1] ?? null };
  if ((m = /iPad.*? OS ([\d_]+)/.exec(ua))) return { os: 'iPadOS', osVersion: m[1]!.replace(/_/g, '.') };
  if ((m = /(?:iPhone|iPod).*? OS ([\d_]+)/.exec(ua))) return { os: 'iOS', osVersion: m[1]!.replace(/_/g, '.') };
  if ((m = /Mac OS X ([\d_.]+)/.exec(ua))) return { os: 'macOS', osVersion: m[1]!.replace(/_/g, '.') };
  if (/CrOS/.test(ua)) return { os: 'ChromeOS', osVersion: null };
  if (/Ubuntu/.test(ua)) return { os: 'Ubuntu', osVersion: null };
  if (/Linux/.test(ua)) return { os: 'Linux', osVersion: null };
  return { os: null, osVersion: null };
}

function readDevice(ua: string): string | null {
  if (/iPad/.test(ua)) return 'iPad';
  if (/iPhone/.test(ua)) return 'iPhone';
  // "Android 14; Pixel 8 Build/…" or "Android 13; SM-S918B)": the part after the version.
  const m = /Android[^;)]*;\s*([^;)]+?)(?:\s+Build\/[^;)]*)?\s*[;)]/.exec(ua);
  if (m) {
    const model = m[1]!.trim();
    // Chrome's reduced agent says "K" instead of the model; a locale ("pt-br") is no model either.
    if (model && model !== 'K' && !/^[a-z]{2}(?:[-_][a-z]{2})?$/i.test(model) && !/^wv$/.test(model)) return model;
  }
  return null;
}

export function parseUserAgent(ua: string | null | undefined): AgentInfo {
  if (!ua || !ua.trim()) return { browser: null, browserVersion: null, os: null, osVersion: null, device: null };
  let browser: string | null = null;
  let browserVersion: string | null = null;
  for (const [name, pattern] of BROWSERS) {
    const m = pattern.exec(ua);
    if (m) {
      browser = name;
      browserVersion = major(m[1] || undefined);
      break;
    }
  }
  return { browser, browserVersion, ...readOs(ua), device: readDevice(ua) };
}

/** "Chrome 124 · Android 14 · Pixel 8"; '' when nothing is known. */
export function agentSummary(info: AgentInfo): string {
  const join = (name: string | null, version: string | null) => (name ? (version ? `${name} ${version}` : name) : null);
  return [join(info.browser, info.browserVersion), join(info.os, info.osVersion), info.device].filter(Boolean).join(' · ');
}
