// The processing steps, in the order they run. The events engine (motion, overspeed,
// geofences, alarms, …) appends its steps after these; each step may add `work.events`.
import type { Step } from '../work.ts';
import { filterInvalid } from './filter-invalid.ts';
import { fillOutdated } from './fill-outdated.ts';
import { order } from './order.ts';
import { distance } from './distance.ts';
import { motion } from './motion.ts';

/** The events engine's steps (events/engine.ts): geofenceIds first, then the event handlers. */
export interface EventSteps {
  geofencesStep: Step;
  eventsStep: Step;
}

export function defaultSteps(events?: EventSteps): Step[] {
  const steps = [filterInvalid, fillOutdated, order, distance, motion];
  if (events) steps.push(events.geofencesStep, events.eventsStep);
  return steps;
}
