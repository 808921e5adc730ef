-- The customer reference of an order (docs/decisions.md, "The admin's orders name the order and
-- its customer"): the name the platform shows for it (#1001) and who placed it.
--
-- The sandbox's orders are numbered per shop from #1001, as Shopify's are; the number is taken
-- under an advisory lock (orders-repository.ts), and existing orders are numbered in the order
-- they were placed. Their customer is what the checkout was given.
-- One column per statement, and the index made by EXECUTE: Citus cannot pass an ALTER TABLE of
-- several subcommands, or a CREATE INDEX, on to its workers when it is one of several statements
-- in a query string (as a migration file is); EXECUTE gives it the statement alone.
ALTER TABLE local_platform_orders ADD COLUMN order_number bigint;
ALTER TABLE local_platform_orders ADD COLUMN customer_name text;
ALTER TABLE local_platform_orders ADD COLUMN customer_email text;
UPDATE local_platform_orders o SET order_number = n.order_number
  FROM (SELECT shop_id, id, 1000 + row_number() OVER (PARTITION BY shop_id ORDER BY created_at, id) AS order_number
          FROM local_platform_orders) n
 WHERE o.shop_id = n.shop_id AND o.id = n.id;
DO $$ BEGIN
  EXECUTE 'CREATE UNIQUE INDEX local_platform_orders_number ON local_platform_orders (shop_id, order_number)';
END $$;

-- What the admin's list of orders shows per row, kept when an order is synced so the list needs
-- no call to the platform per row. The customer's fields are cleared by customers/redact.
ALTER TABLE tracked_orders ADD COLUMN order_name text;
ALTER TABLE tracked_orders ADD COLUMN customer_name text;
ALTER TABLE tracked_orders ADD COLUMN customer_email text;
-- (`::text` first: Citus refuses the STABLE `text || bigint` over a column in an UPDATE.)
UPDATE tracked_orders t SET order_name = '#' || o.order_number::text, customer_name = o.customer_name,
    customer_email = o.customer_email
  FROM local_platform_orders o
 WHERE o.shop_id = t.shop_id AND o.id = t.order_id;
