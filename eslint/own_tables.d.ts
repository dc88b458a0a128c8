import type { Rule } from 'eslint'

/** `dropslot/own-tables`: a module writes only its own tables (see own_tables.js). */
declare const ownTables: Rule.RuleModule
export default ownTables
