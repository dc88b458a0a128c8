/*
| Routes live with their business module (app/<module>/routes.ts); this file only loads them,
| in the order that matters for the catch-all fallbacks registered last.
*/
import '#core/routes'
import '#accounts/routes'
import '#catalog/routes'
import '#profiles/routes'
import '#checkout/routes'
import '#orders/routes'
import '#payments/routes'
import '#release/routes'
import '#draws/routes'
import '#notifications/routes'
import '#alerts/routes'
import '#mail/routes'
import '#admin/routes'
import '#core/fallback_routes'
