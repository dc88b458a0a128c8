import { defineConfig } from '@adonisjs/core/bodyparser'

const bodyParserConfig = defineConfig({
  allowedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],

  form: {
    convertEmptyStringsToNull: true,
    types: ['application/x-www-form-urlencoded'],
    limit: '64kb',
  },

  json: {
    convertEmptyStringsToNull: false,
    types: [
      'application/json',
      'application/json-patch+json',
      'application/vnd.api+json',
      'application/csp-report',
    ],
    limit: '256kb',
  },

  // Webhook signatures are computed over the exact bytes, so the raw body is kept.
  raw: {
    types: ['text/*'],
    limit: '256kb',
  },

  multipart: {
    autoProcess: false,
    convertEmptyStringsToNull: true,
    processManually: [],
    limit: '5mb',
    types: ['multipart/form-data'],
  },
})

export default bodyParserConfig
