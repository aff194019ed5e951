// The binary and text device protocols served on their own ports (ingest/tcp/ starts one
// listener per entry whose port is not 0). OsmAnd (HTTP) has its own server in ingest/osmand/.
import type { ProtocolDefinition } from './protocol.ts';

export const PROTOCOLS: readonly ProtocolDefinition[] = [
];
