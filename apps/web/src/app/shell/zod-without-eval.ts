// zod compiles object parsers with `new Function` when it may, probing for it the first time a
// schema parses. Our Content Security Policy forbids eval (script-src without 'unsafe-eval'),
// so that probe is reported as a violation even though zod falls back. In the browser zod
// parses a few form bodies at a time, where the compiled path gains nothing: turn it off before
// any schema runs. Imported first by the shell, the only chunk whose screens parse schemas.
import { config } from 'zod';

config({ jitless: true });
