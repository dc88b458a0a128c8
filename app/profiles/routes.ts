import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const ProfilesController = () => import('#profiles/controllers/profiles_controller')

router
  .group(() => {
    router.get('/api/user/profiles', [ProfilesController, 'index']).as('index')
    router.post('/api/user/profiles/add', [ProfilesController, 'add']).as('add')
    router.post('/api/user/profiles/edit', [ProfilesController, 'edit']).as('edit')
    router.post('/api/user/profiles/delete', [ProfilesController, 'delete']).as('delete')
  })
  .as('profiles')
  .use(middleware.auth())
