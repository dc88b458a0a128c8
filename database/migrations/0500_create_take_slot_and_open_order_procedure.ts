import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * MariaDB/MySQL only: the slot purchase (the conditional UPDATE of the product's slot counter,
 * then the order's INSERT) as one stored procedure, so a checkout takes the hot product row's
 * lock and commits in one round trip instead of four (BEGIN, UPDATE, INSERT, COMMIT). Under a
 * release-day rush every checkout of the drop waits for that row, and with the statements sent
 * one by one it stayed locked across the app's event loop turns (docs/performance.md).
 *
 * The same rules as the SQLite path (`SlotStock.take` + `OrderLifecycle.open` in a transaction):
 * the UPDATE changes the row only while a slot is left and the product is unreleased and
 * available; the order row is exactly what the caller built; a duplicate active order (the
 * unique index) rolls both back and reaches the caller as the original error (1062).
 *
 * Text parameters are utf8mb4 whatever the database's default character set, as the connection
 * is, so a name or a title reaches the row as the direct INSERT would write it.
 *
 * `p_in_transaction`: 1 when the caller already has a transaction open (the test suite's global
 * transaction): then the procedure works under a savepoint instead of committing it.
 * Returns one row: `order_id`, NULL when no slot was left.
 */
export const PROCEDURE = `CREATE PROCEDURE take_slot_and_open_order(
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
  IN p_refunded_cents INT
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
      fee_attempts, refunded_cents, created_at, updated_at)
    VALUES (p_public_id, p_user_id, p_product_id, p_profile_id, p_product_title,
      p_base_price_cents, p_price_cents, p_promo_code, p_promo_percent, p_style, p_size, p_email,
      p_name, p_status, p_active_slot, p_aco_vault, p_hold_status, p_hold_amount_cents,
      p_hold_attempts, p_fee_status, 0, p_refunded_cents, p_now, p_now);
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
    if (this.db.dialect.name !== 'mysql') return
    this.defer(async (db) => {
      await db.rawQuery('DROP PROCEDURE IF EXISTS take_slot_and_open_order')
      await db.rawQuery(PROCEDURE)
    })
  }

  async down() {
    if (this.db.dialect.name !== 'mysql') return
    this.defer(async (db) => {
      await db.rawQuery('DROP PROCEDURE IF EXISTS take_slot_and_open_order')
    })
  }
}
