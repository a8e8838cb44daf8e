/** What the `scope` setting names: an organisation, folder or project, as ListAssets takes `parent`. */
export const scopePattern = /^(organizations\/\d+|folders\/\d+|projects\/[a-z][-a-z0-9]{4,28}[a-z0-9]|projects\/\d+)$/;
