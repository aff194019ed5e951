// The one door to zod for the shared schemas. zod compiles object parsers with `new Function`
// when it may, probing for it on the first parse; the web client's Content Security Policy
// forbids eval, so the probe alone is reported as a violation in the browser (zod then falls
// back). Forms and request bodies are small, the compiled path gains nothing there: it is
// switched off here, before any schema of ours can parse, on both sides.
import { config, z } from 'zod';

config({ jitless: true });

export { z };
