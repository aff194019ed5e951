// Demo routes: real avenues of São Paulo traced as [latitude, longitude] waypoints, written by
// hand from the streets' known course (metro and train stations along them as landmarks).
// Vehicles drive each route end to end and back. The road class sets plausible speeds.
import type { LatLon } from './geo.ts';

export type RoadClass = 'city' | 'arterial' | 'expressway';

/** Speed band of a road class, km/h. */
export const ROAD_SPEEDS: Record<RoadClass, { min: number; max: number }> = {
  city: { min: 20, max: 60 },
  arterial: { min: 30, max: 70 },
  expressway: { min: 40, max: 90 },
};

export interface DemoRoute {
  key: string;
  name: string;
  road: RoadClass;
  points: readonly LatLon[];
}

export const SP_ROUTES: readonly DemoRoute[] = [
  {
    key: 'paulista',
    name: 'Avenida Paulista',
    road: 'city',
    points: [
      [-23.5712, -46.6447], // Praça Oswaldo Cruz
      [-23.5699, -46.6466],
      [-23.5686, -46.6485], // Brigadeiro
      [-23.5668, -46.6505],
      [-23.565, -46.6524],
      [-23.5632, -46.6542],
      [-23.5614, -46.6559], // MASP / Trianon
      [-23.5597, -46.6578],
      [-23.558, -46.6601],
      [-23.5567, -46.662], // Consolação
      [-23.5554, -46.6641], // Av. Dr. Arnaldo
    ],
  },
  {
    key: 'marginal-pinheiros',
    name: 'Marginal Pinheiros',
    road: 'expressway',
    points: [
      [-23.5276, -46.7446], // Cebolão
      [-23.5355, -46.7405],
      [-23.5447, -46.735], // Villa-Lobos / Jaguaré
      [-23.552, -46.725],
      [-23.5585, -46.7125], // Cidade Universitária
      [-23.564, -46.7055],
      [-23.5673, -46.702], // Pinheiros
      [-23.5728, -46.698], // Hebraica-Rebouças
      [-23.58, -46.693],
      [-23.5866, -46.6896], // Cidade Jardim
      [-23.5931, -46.6912], // Vila Olímpia
      [-23.601, -46.6945],
      [-23.6085, -46.6975], // Berrini
      [-23.616, -46.7003], // Morumbi
      [-23.629, -46.7065], // Granja Julieta
      [-23.642, -46.713],
      [-23.655, -46.7185], // Santo Amaro
      [-23.6655, -46.7125], // Socorro
    ],
  },
  {
    key: '23-de-maio',
    name: 'Avenida 23 de Maio / Rubem Berta',
    road: 'arterial',
    points: [
      [-23.5497, -46.6384], // Praça da Bandeira
      [-23.5545, -46.6398],
      [-23.56, -46.6405],
      [-23.566, -46.6405],
      [-23.5712, -46.6404], // Centro Cultural / Vergueiro
      [-23.5765, -46.643],
      [-23.581, -46.648],
      [-23.5848, -46.6535], // Obelisco / Ibirapuera
      [-23.592, -46.657],
      [-23.5995, -46.658], // Av. Rubem Berta
      [-23.6075, -46.6585],
      [-23.615, -46.659], // Av. Moreira Guimarães
      [-23.6235, -46.6575], // Congonhas
    ],
  },
  {
    key: 'radial-leste',
    name: 'Radial Leste',
    road: 'arterial',
    points: [
      [-23.548, -46.63], // Parque Dom Pedro II
      [-23.5477, -46.623],
      [-23.5475, -46.6157], // Brás
      [-23.5465, -46.6075], // Bresser-Mooca
      [-23.5447, -46.5985],
      [-23.5429, -46.5893], // Belém
      [-23.5403, -46.5767], // Tatuapé
      [-23.5373, -46.5636], // Carrão
      [-23.5337, -46.5424], // Penha
      [-23.5319, -46.5305], // Vila Matilde
      [-23.5292, -46.516], // Guilhermina-Esperança
      [-23.5311, -46.5016], // Patriarca
      [-23.5403, -46.4842], // Artur Alvim
      [-23.5426, -46.4712], // Corinthians-Itaquera
    ],
  },
  {
    key: 'reboucas',
    name: 'Avenida Rebouças',
    road: 'city',
    points: [
      [-23.5556, -46.6645], // Av. Dr. Arnaldo / Paulista
      [-23.5585, -46.6665],
      [-23.562, -46.6695], // Oscar Freire
      [-23.5655, -46.673],
      [-23.569, -46.677], // Estados Unidos
      [-23.5718, -46.681], // Av. Brasil
      [-23.574, -46.6855],
      [-23.5752, -46.6895], // Faria Lima
      [-23.5745, -46.694], // Eusébio Matoso
      [-23.573, -46.6975], // Shopping Eldorado
    ],
  },
  {
    key: 'faria-lima',
    name: 'Avenida Brigadeiro Faria Lima',
    road: 'city',
    points: [
      [-23.5668, -46.6935], // Largo da Batata
      [-23.571, -46.6905],
      [-23.5752, -46.6895], // Rebouças
      [-23.5795, -46.6865],
      [-23.5835, -46.6838], // Av. Cidade Jardim
      [-23.5878, -46.681], // Iguatemi
      [-23.592, -46.6785], // Av. Juscelino Kubitschek
    ],
  },
];

export function routeByKey(key: string): DemoRoute {
  const route = SP_ROUTES.find((r) => r.key === key);
  if (!route) throw new Error(`unknown demo route ${key}`);
  return route;
}
