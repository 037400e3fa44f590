// Where the browser gets the schema set: a module of its own, so that the entry script can ask for
// the set before the catalog's code has arrived (app/Router.tsx startPageLoad).
export const SCHEMAS_URL = '/api/schemas';
