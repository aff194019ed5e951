// The demo fleet: a dozen vehicles of different kinds, each with a Brazilian (Mercosul) plate,
// a route, and the limits of its kind (a bus never does 90 on the Marginal).

export interface DemoVehicle {
  uniqueId: string;
  name: string;
  category: string;
  plate: string;
  brand: string;
  model: string;
  /** Key of its route in sp-routes.ts. */
  route: string;
  /** Top speed of this kind of vehicle, km/h (the road's band applies too). */
  maxKmh: number;
  /** Electrical system: 12 V cars, 24 V heavy vehicles (reported as `power`). */
  volts: 12 | 24;
  /** Where on the route it starts (0..1 of its length) and which way it drives. */
  start: number;
  forward: boolean;
}

export const DEMO_PREFIX = 'demo-';

export const DEMO_FLEET: readonly DemoVehicle[] = [
  { uniqueId: 'demo-001', name: 'Corolla Diretoria', category: 'car', plate: 'FQR4B21', brand: 'Toyota', model: 'Corolla XEi', route: 'paulista', maxKmh: 120, volts: 12, start: 0.1, forward: true },
  { uniqueId: 'demo-002', name: 'Ônibus 875A', category: 'bus', plate: 'DKT8C54', brand: 'Mercedes-Benz', model: 'O-500U', route: 'paulista', maxKmh: 50, volts: 24, start: 0.7, forward: false },
  { uniqueId: 'demo-003', name: 'Carreta Scania R450', category: 'truck', plate: 'GHJ2E07', brand: 'Scania', model: 'R450', route: 'marginal-pinheiros', maxKmh: 80, volts: 24, start: 0.05, forward: true },
  { uniqueId: 'demo-004', name: 'Strada Técnica', category: 'pickup', plate: 'RTA6F33', brand: 'Fiat', model: 'Strada Freedom', route: 'marginal-pinheiros', maxKmh: 120, volts: 12, start: 0.55, forward: false },
  { uniqueId: 'demo-005', name: 'Sprinter Executiva', category: 'van', plate: 'QWE3G18', brand: 'Mercedes-Benz', model: 'Sprinter 416', route: 'marginal-pinheiros', maxKmh: 100, volts: 12, start: 0.85, forward: false },
  { uniqueId: 'demo-006', name: 'Motoboy CG 160', category: 'motorcycle', plate: 'EZM9H40', brand: 'Honda', model: 'CG 160 Fan', route: '23-de-maio', maxKmh: 100, volts: 12, start: 0.2, forward: true },
  { uniqueId: 'demo-007', name: 'Hilux Manutenção', category: 'pickup', plate: 'BRA2E19', brand: 'Toyota', model: 'Hilux SRV', route: '23-de-maio', maxKmh: 120, volts: 12, start: 0.75, forward: false },
  { uniqueId: 'demo-008', name: 'Trólebus 2100', category: 'trolleybus', plate: 'CVX5J62', brand: 'Eletra', model: 'E-Trólebus', route: 'radial-leste', maxKmh: 50, volts: 24, start: 0.3, forward: true },
  { uniqueId: 'demo-009', name: 'VW Delivery 11.180', category: 'truck', plate: 'FBN7K25', brand: 'Volkswagen', model: 'Delivery 11.180', route: 'radial-leste', maxKmh: 80, volts: 24, start: 0.8, forward: false },
  { uniqueId: 'demo-010', name: 'Fiorino Entregas', category: 'van', plate: 'SPL1M84', brand: 'Fiat', model: 'Fiorino Endurance', route: 'reboucas', maxKmh: 100, volts: 12, start: 0.4, forward: true },
  { uniqueId: 'demo-011', name: 'Motoboy Fazer 250', category: 'motorcycle', plate: 'KLP4N96', brand: 'Yamaha', model: 'Fazer FZ25', route: 'faria-lima', maxKmh: 100, volts: 12, start: 0.15, forward: true },
  { uniqueId: 'demo-012', name: 'Scooter Elétrica', category: 'scooter', plate: 'JTS8P50', brand: 'Voltz', model: 'EV1', route: 'faria-lima', maxKmh: 45, volts: 12, start: 0.9, forward: false },
];
