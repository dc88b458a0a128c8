import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

export default class NewsletterSubscriber extends BaseModel {
  static table = 'newsletter_subscribers'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare email: string

  @column()
  declare source: string

  @column.dateTime()
  declare unsubscribedAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
