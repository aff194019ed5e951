// The binary and text device protocols served on their own ports (ingest/tcp/ starts one
// listener per entry whose port is not 0). OsmAnd (HTTP) has its own server in ingest/osmand/.
import { gt06Protocol } from './gt06/gt06.ts';
import { h02Protocol } from './h02/h02.ts';
import type { ProtocolDefinition } from './protocol.ts';
import { suntechProtocol } from './suntech/suntech.ts';
import { teltonikaProtocol } from './teltonika/teltonika.ts';

export const PROTOCOLS: readonly ProtocolDefinition[] = [
  gt06Protocol,
  teltonikaProtocol,
  h02Protocol,
  suntechProtocol,
];
