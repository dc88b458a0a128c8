import router from '@adonisjs/core/services/router'

const HealthController = () => import('#core/controllers/health_controller')
const PublicConfigController = () => import('#core/controllers/public_config_controller')

router.get('/health', [HealthController, 'show']).as('core.health')
router.get('/api/config', [PublicConfigController, 'show']).as('core.publicConfig')
