-- The customer reference of an order (docs/decisions.md, "The admin's orders name the order and
-- its customer"): the name the platform shows for it (#1001) and who placed it.
--
-- The sandbox's orders are numbered per shop from #1001, as Shopify's are; the number is taken
-- under an advisory lock (orders-repository.ts), and existing orders are numbered in the order
-- they were placed. Their customer is what the checkout was given.
ALTER TABLE local_platform_orders
  ADD COLUMN order_number bigint,
  ADD COLUMN customer_name text,
  ADD COLUMN customer_email text;
UPDATE local_platform_orders o SET order_number = n.order_number
  FROM (SELECT shop_id, id, 1000 + row_number() OVER (PARTITION BY shop_id ORDER BY created_at, id) AS order_number
          FROM local_platform_orders) n
 WHERE o.shop_id = n.shop_id AND o.id = n.id;
CREATE UNIQUE INDEX local_platform_orders_number ON local_platform_orders (shop_id, order_number);

-- What the admin's list of orders shows per row, kept when an order is synced so the list needs
-- no call to the platform per row. The customer's fields are cleared by customers/redact.
ALTER TABLE tracked_orders
  ADD COLUMN order_name text,
  ADD COLUMN customer_name text,
  ADD COLUMN customer_email text;
UPDATE tracked_orders t SET order_name = '#' || o.order_number, customer_name = o.customer_name,
    customer_email = o.customer_email
  FROM local_platform_orders o
 WHERE o.shop_id = t.shop_id AND o.id = t.order_id;
