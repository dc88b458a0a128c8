import env from '#start/env'

/*
| Access tokens: how long one lives, and how often the noted uses are written
| (app/accounts/services/token_last_use.ts). Apart from config/auth.ts, which imports the
| accounts module's user provider, so that the user model can read these without a circle.
*/
export const accessTokenTtl = env.get('ACCESS_TOKEN_TTL', '30 days')
export const tokenLastUseFlushMs = env.get('TOKEN_LAST_USED_FLUSH_MS', 5000)
