// What other features use from the device list: the session's groups, geofences and anchors.
export { anchorIn, geofencesQuery, groupsQuery, updateAnchorCache } from './session-data.ts';
