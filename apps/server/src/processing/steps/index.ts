// The processing steps, in the order they run (Traccar's handler order, reference A.9). The
// events engine (geofences, overspeed, alarms, …) appends its steps after these; each step may
// add `work.events`.
import type { AttributeLookup } from '../../events/attribute-lookup.ts';
import type { Step } from '../work.ts';
import { clockSettings } from './clock-settings.ts';
import { deviceClockStep } from './device-clock.ts';
import { filterInvalid } from './filter-invalid.ts';
import { fillOutdated } from './fill-outdated.ts';
import { orderStep } from './order.ts';
import { distance } from './distance.ts';
import { motion } from './motion.ts';
import { engineHours } from './engine-hours.ts';
import { copyAttributesStep, copyList } from './copy-attributes.ts';

/** The events engine's steps (events/engine.ts): geofenceIds first, then the event handlers. */
export interface EventSteps {
  geofencesStep: Step;
  eventsStep: Step;
  /** Per-device settings (decoder.timezone, filter.future, processing.copyAttributes); the built-in defaults without it. */
  lookup?: AttributeLookup;
}

export function defaultSteps(events?: EventSteps): Step[] {
  const settings = clockSettings(events?.lookup);
  const copy = copyAttributesStep(copyList(events?.lookup));
  const steps = [deviceClockStep(settings), filterInvalid, fillOutdated, orderStep(settings), distance, motion, copy, engineHours];
  if (events) steps.push(events.geofencesStep, events.eventsStep);
  return steps;
}
