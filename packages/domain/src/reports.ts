// The items of GET /api/reports/summary, /trips and /stops (OpenAPI ReportSummary,
// ReportTrips, ReportStops; reference A.4): what our server sends and what the client reads.
// Fields Traccar may leave out are optional, so the client also reads an existing Traccar.
// Speeds in knots, distances in metres, durations and engine hours in ms, times ISO.

export interface ReportSummary {
  deviceId: number;
  deviceName?: string;
  startTime?: string;
  endTime?: string;
  distance: number;
  averageSpeed: number;
  maxSpeed: number;
  spentFuel?: number;
  startOdometer?: number;
  endOdometer?: number;
  startHours?: number;
  endHours?: number;
  engineHours?: number;
}

export interface ReportTrip {
  deviceId: number;
  deviceName?: string;
  startTime: string;
  endTime: string;
  duration: number;
  distance: number;
  averageSpeed: number;
  maxSpeed: number;
  spentFuel?: number;
  startOdometer?: number;
  endOdometer?: number;
  startPositionId?: number | null;
  endPositionId?: number | null;
  startLat?: number;
  startLon?: number;
  endLat?: number;
  endLon?: number;
  startAddress?: string | null;
  endAddress?: string | null;
  driverUniqueId?: string | null;
  driverName?: string | null;
}

export interface ReportStop {
  deviceId: number;
  deviceName?: string;
  positionId?: number | null;
  latitude?: number;
  longitude?: number;
  /** The OpenAPI file names the coordinates lat/lon; Traccar sends latitude/longitude. */
  lat?: number;
  lon?: number;
  address?: string | null;
  startTime: string;
  endTime: string;
  duration: number;
  engineHours?: number;
  spentFuel?: number;
  startOdometer?: number;
  endOdometer?: number;
  distance?: number;
  averageSpeed?: number;
  maxSpeed?: number;
}
