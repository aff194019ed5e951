// The device-side encoders by protocol name (what `--protocol` accepts).
import type { SimProtocol, TrackerEncoder } from './encoder.ts';
import { gt06Encoder } from './gt06.ts';
import { h02Encoder } from './h02.ts';
import { suntechEncoder } from './suntech.ts';
import { teltonikaEncoder } from './teltonika.ts';

export const ENCODERS: Readonly<Record<SimProtocol, TrackerEncoder>> = {
  gt06: gt06Encoder,
  teltonika: teltonikaEncoder,
  h02: h02Encoder,
  suntech: suntechEncoder,
};

export const SIM_PROTOCOLS = Object.keys(ENCODERS) as SimProtocol[];

export const isSimProtocol = (name: string): name is SimProtocol => name in ENCODERS;
