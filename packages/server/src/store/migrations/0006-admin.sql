-- The merchant admin (PRODUCT.md §17): a shop's staff, their sessions, and the forms each
-- session has already applied (a double click applies once).

-- One account belongs to one shop; the email signs in, so it is unique across shops
-- (stored lower-cased: the same address typed with capitals is the same account).
CREATE TABLE admin_users (
  id                    bigserial PRIMARY KEY,
  shop_id               bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  email                 text NOT NULL UNIQUE CHECK (email = lower(email)),
  password_hash         text NOT NULL,               -- scrypt$N$r$p$salt$hash, never the password
  -- A one-time password printed by `tare admin-users create` must be replaced at first sign-in.
  must_change_password  boolean NOT NULL DEFAULT true,
  created_at            timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at       timestamptz
);
CREATE INDEX admin_users_shop ON admin_users (shop_id);

-- The cookie carries a random token; only its SHA-256 is stored, so a copy of this table signs
-- nobody in. A session ends when idle too long or past its absolute lifetime (checked per request).
CREATE TABLE admin_sessions (
  token_sha256   bytea PRIMARY KEY,
  user_id        bigint NOT NULL REFERENCES admin_users(id) ON DELETE CASCADE,
  created_at     timestamptz NOT NULL DEFAULT now(),
  last_seen_at   timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL                 -- the absolute end
);
CREATE INDEX admin_sessions_user ON admin_sessions (user_id);

-- Each rendered form carries a random id; the first post of it claims the row, a second post
-- (a double click, a reload) finds it and applies nothing. `outcome` says what the first did.
CREATE TABLE admin_form_submissions (
  token_sha256  bytea NOT NULL REFERENCES admin_sessions(token_sha256) ON DELETE CASCADE,
  form_id       text NOT NULL,
  outcome       jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (token_sha256, form_id)
);
