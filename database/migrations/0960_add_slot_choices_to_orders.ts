import { BaseSchema } from '@adonisjs/lucid/schema'
import { PROCEDURE as PROCEDURE_BEFORE } from './0500_create_take_slot_and_open_order_procedure.js'

/**
 * The buyer's choices of a slot (docs/storefront-and-money.md, "One slot, every chance"):
 * - `size_ladder`: the sizes to try, in order, as a JSON array whose first is `size`; null when
 *   the buyer named only `size`;
 * - `retailer_choice`: the retailers the buyer accepts, as a JSON array of retailer keys; null
 *   for every retailer the product releases at;
 * - `max_item_price_cents`: the most the buyer will pay the retailer for the item with
 *   shipping; null for no cap.
 *
 * The stored procedure of the MariaDB/MySQL checkout (migration 0500) is written again to take
 * them: one slot, one order row, whatever the ladder.
 */
const PROCEDURE = `CREATE PROCEDURE take_slot_and_open_order(
  IN p_in_transaction TINYINT,
  IN p_now DATETIME,
  IN p_public_id VARCHAR(36) CHARACTER SET utf8mb4,
  IN p_user_id INT UNSIGNED,
  IN p_product_id INT UNSIGNED,
  IN p_profile_id VARCHAR(36) CHARACTER SET utf8mb4,
  IN p_product_title VARCHAR(160) CHARACTER SET utf8mb4,
  IN p_base_price_cents INT,
  IN p_price_cents INT,
  IN p_promo_code VARCHAR(40) CHARACTER SET utf8mb4,
  IN p_promo_percent INT,
  IN p_style VARCHAR(64) CHARACTER SET utf8mb4,
  IN p_size VARCHAR(16) CHARACTER SET utf8mb4,
  IN p_email VARCHAR(254) CHARACTER SET utf8mb4,
  IN p_name VARCHAR(64) CHARACTER SET utf8mb4,
  IN p_status VARCHAR(16) CHARACTER SET utf8mb4,
  IN p_active_slot TINYINT,
  IN p_aco_vault TEXT CHARACTER SET utf8mb4,
  IN p_hold_status VARCHAR(16) CHARACTER SET utf8mb4,
  IN p_hold_amount_cents INT,
  IN p_hold_attempts INT,
  IN p_fee_status VARCHAR(16) CHARACTER SET utf8mb4,
  IN p_refunded_cents INT,
  IN p_size_ladder VARCHAR(120) CHARACTER SET utf8mb4,
  IN p_retailer_choice VARCHAR(400) CHARACTER SET utf8mb4,
  IN p_max_item_price_cents INT
)
MODIFIES SQL DATA
BEGIN
  DECLARE v_order_id INT UNSIGNED DEFAULT NULL;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    IF p_in_transaction = 1 THEN
      ROLLBACK TO SAVEPOINT take_slot_and_open_order;
    ELSE
      ROLLBACK;
    END IF;
    RESIGNAL;
  END;

  IF p_in_transaction = 1 THEN
    SAVEPOINT take_slot_and_open_order;
  ELSE
    START TRANSACTION;
  END IF;

  UPDATE products SET stock_taken = stock_taken + 1
    WHERE id = p_product_id AND avail = 1 AND stock_taken < total_stock
    AND (release_at IS NULL OR release_at > p_now);

  IF ROW_COUNT() = 1 THEN
    INSERT INTO orders (public_id, user_id, product_id, profile_id, product_title,
      base_price_cents, price_cents, promo_code, promo_percent, style, size, email, name, status,
      active_slot, aco_vault, hold_status, hold_amount_cents, hold_attempts, fee_status,
      fee_attempts, refunded_cents, size_ladder, retailer_choice, max_item_price_cents,
      created_at, updated_at)
    VALUES (p_public_id, p_user_id, p_product_id, p_profile_id, p_product_title,
      p_base_price_cents, p_price_cents, p_promo_code, p_promo_percent, p_style, p_size, p_email,
      p_name, p_status, p_active_slot, p_aco_vault, p_hold_status, p_hold_amount_cents,
      p_hold_attempts, p_fee_status, 0, p_refunded_cents, p_size_ladder, p_retailer_choice,
      p_max_item_price_cents, p_now, p_now);
    SET v_order_id = LAST_INSERT_ID();
  END IF;

  IF p_in_transaction = 1 THEN
    RELEASE SAVEPOINT take_slot_and_open_order;
  ELSE
    COMMIT;
  END IF;

  SELECT v_order_id AS order_id;
END`

export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('orders', (table) => {
      table.string('size_ladder', 120).nullable()
      table.string('retailer_choice', 400).nullable()
      table.integer('max_item_price_cents').nullable()
    })
    if (this.db.dialect.name !== 'mysql') return
    this.defer(async (db) => {
      await db.rawQuery('DROP PROCEDURE IF EXISTS take_slot_and_open_order')
      await db.rawQuery(PROCEDURE)
    })
  }

  async down() {
    if (this.db.dialect.name === 'mysql') {
      this.defer(async (db) => {
        await db.rawQuery('DROP PROCEDURE IF EXISTS take_slot_and_open_order')
        await db.rawQuery(PROCEDURE_BEFORE)
      })
    }
    this.schema.alterTable('orders', (table) => {
      table.dropColumn('size_ladder')
      table.dropColumn('retailer_choice')
      table.dropColumn('max_item_price_cents')
    })
  }
}
