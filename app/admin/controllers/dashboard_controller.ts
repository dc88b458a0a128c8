import { dashboard } from '#admin/services/dashboard_service'

export default class DashboardController {
  async show() {
    return dashboard.summary()
  }
}
