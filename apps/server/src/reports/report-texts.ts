// Texts of the server-built spreadsheets, per language (pt-BR, es, en). Keys are shared by
// every report kind; trips/stops add theirs here too. A unit test checks each language has
// every key.
import type { Language } from '@rastro/domain/language';

const en = {
  reportRoute: 'Route',
  reportSummary: 'Summary',
  reportEvents: 'Events',
  reportTrips: 'Trips',
  reportStops: 'Stops',
  device: 'Device',
  time: 'Time',
  fixTime: 'Fix time',
  latitude: 'Latitude',
  longitude: 'Longitude',
  altitude: 'Altitude (m)',
  speed: 'Speed',
  course: 'Course',
  address: 'Address',
  valid: 'Valid',
  totalDistance: 'Total distance',
  startTime: 'Start time',
  endTime: 'End time',
  distance: 'Distance',
  startOdometer: 'Start odometer',
  endOdometer: 'End odometer',
  averageSpeed: 'Average speed',
  maxSpeed: 'Maximum speed',
  engineHours: 'Engine hours',
  spentFuel: 'Fuel spent (l)',
  duration: 'Duration',
  startAddress: 'Start address',
  endAddress: 'End address',
  driver: 'Driver',
  eventType: 'Type',
  geofence: 'Geofence',
  alarm: 'Alarm',
  yes: 'Yes',
  no: 'No',
};

export type TextKey = keyof typeof en;

const ptBR: Record<TextKey, string> = {
  reportRoute: 'Rota',
  reportSummary: 'Resumo',
  reportEvents: 'Eventos',
  reportTrips: 'Viagens',
  reportStops: 'Paradas',
  device: 'Dispositivo',
  time: 'Hora',
  fixTime: 'Hora da posição',
  latitude: 'Latitude',
  longitude: 'Longitude',
  altitude: 'Altitude (m)',
  speed: 'Velocidade',
  course: 'Direção',
  address: 'Endereço',
  valid: 'Válida',
  totalDistance: 'Distância total',
  startTime: 'Início',
  endTime: 'Fim',
  distance: 'Distância',
  startOdometer: 'Odômetro inicial',
  endOdometer: 'Odômetro final',
  averageSpeed: 'Velocidade média',
  maxSpeed: 'Velocidade máxima',
  engineHours: 'Horas de motor',
  spentFuel: 'Combustível gasto (l)',
  duration: 'Duração',
  startAddress: 'Endereço inicial',
  endAddress: 'Endereço final',
  driver: 'Motorista',
  eventType: 'Tipo',
  geofence: 'Cerca virtual',
  alarm: 'Alarme',
  yes: 'Sim',
  no: 'Não',
};

const es: Record<TextKey, string> = {
  reportRoute: 'Ruta',
  reportSummary: 'Resumen',
  reportEvents: 'Eventos',
  reportTrips: 'Viajes',
  reportStops: 'Paradas',
  device: 'Dispositivo',
  time: 'Hora',
  fixTime: 'Hora de la posición',
  latitude: 'Latitud',
  longitude: 'Longitud',
  altitude: 'Altitud (m)',
  speed: 'Velocidad',
  course: 'Rumbo',
  address: 'Dirección',
  valid: 'Válida',
  totalDistance: 'Distancia total',
  startTime: 'Inicio',
  endTime: 'Fin',
  distance: 'Distancia',
  startOdometer: 'Odómetro inicial',
  endOdometer: 'Odómetro final',
  averageSpeed: 'Velocidad media',
  maxSpeed: 'Velocidad máxima',
  engineHours: 'Horas de motor',
  spentFuel: 'Combustible gastado (l)',
  duration: 'Duración',
  startAddress: 'Dirección inicial',
  endAddress: 'Dirección final',
  driver: 'Conductor',
  eventType: 'Tipo',
  geofence: 'Geocerca',
  alarm: 'Alarma',
  yes: 'Sí',
  no: 'No',
};

export const REPORT_TEXTS: Record<Language, Record<TextKey, string>> = { 'pt-BR': ptBR, es, en };

/** Names of event types (spec §9 notification types), per language; unknown types show as sent. */
const EVENT_NAMES: Record<Language, Record<string, string>> = {
  en: {
    deviceOnline: 'Online', deviceOffline: 'Offline', deviceUnknown: 'Status unknown', deviceInactive: 'Inactive',
    deviceMoving: 'Moving', deviceStopped: 'Stopped', deviceOverspeed: 'Speed limit exceeded', deviceFuelDrop: 'Fuel drop',
    geofenceEnter: 'Entered geofence', geofenceExit: 'Exited geofence', alarm: 'Alarm', ignitionOn: 'Ignition on',
    ignitionOff: 'Ignition off', maintenance: 'Maintenance required', textMessage: 'Text message received',
    driverChanged: 'Driver changed', commandResult: 'Command result', queuedCommandSent: 'Queued command sent',
  },
  'pt-BR': {
    deviceOnline: 'Online', deviceOffline: 'Offline', deviceUnknown: 'Status desconhecido', deviceInactive: 'Inativo',
    deviceMoving: 'Em movimento', deviceStopped: 'Parado', deviceOverspeed: 'Limite de velocidade excedido',
    deviceFuelDrop: 'Queda de combustível', geofenceEnter: 'Entrou na cerca', geofenceExit: 'Saiu da cerca',
    alarm: 'Alarme', ignitionOn: 'Ignição ligada', ignitionOff: 'Ignição desligada', maintenance: 'Manutenção necessária',
    textMessage: 'Mensagem de texto recebida', driverChanged: 'Motorista alterado', commandResult: 'Resultado de comando',
    queuedCommandSent: 'Comando na fila enviado',
  },
  es: {
    deviceOnline: 'En línea', deviceOffline: 'Fuera de línea', deviceUnknown: 'Estado desconocido', deviceInactive: 'Inactivo',
    deviceMoving: 'En movimiento', deviceStopped: 'Detenido', deviceOverspeed: 'Límite de velocidad excedido',
    deviceFuelDrop: 'Caída de combustible', geofenceEnter: 'Entró en la geocerca', geofenceExit: 'Salió de la geocerca',
    alarm: 'Alarma', ignitionOn: 'Encendido', ignitionOff: 'Apagado', maintenance: 'Mantenimiento necesario',
    textMessage: 'Mensaje de texto recibido', driverChanged: 'Conductor cambiado', commandResult: 'Resultado del comando',
    queuedCommandSent: 'Comando en cola enviado',
  },
};

export function eventTypeName(language: Language, type: string): string {
  return EVENT_NAMES[language][type] ?? type;
}

export function eventNameLanguages(): Record<Language, Record<string, string>> {
  return EVENT_NAMES;
}
