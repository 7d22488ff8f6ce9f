import { type Kysely, sql } from "kysely";

// Better Auth's own tables keep its camelCase column names (it owns them); ours are snake_case.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table "user" (
      "id" text not null primary key,
      "name" text not null,
      "email" text not null unique,
      "emailVerified" boolean not null,
      "image" text,
      "createdAt" timestamptz default current_timestamp not null,
      "updatedAt" timestamptz default current_timestamp not null,
      "twoFactorEnabled" boolean
    );
    create table "session" (
      "id" text not null primary key,
      "expiresAt" timestamptz not null,
      "token" text not null unique,
      "createdAt" timestamptz default current_timestamp not null,
      "updatedAt" timestamptz not null,
      "ipAddress" text,
      "userAgent" text,
      "userId" text not null references "user" ("id") on delete cascade
    );
    create index "session_userId_idx" on "session" ("userId");
    create table "account" (
      "id" text not null primary key,
      "accountId" text not null,
      "providerId" text not null,
      "userId" text not null references "user" ("id") on delete cascade,
      "accessToken" text,
      "refreshToken" text,
      "idToken" text,
      "accessTokenExpiresAt" timestamptz,
      "refreshTokenExpiresAt" timestamptz,
      "scope" text,
      "password" text,
      "createdAt" timestamptz default current_timestamp not null,
      "updatedAt" timestamptz not null
    );
    create index "account_userId_idx" on "account" ("userId");
    create table "verification" (
      "id" text not null primary key,
      "identifier" text not null,
      "value" text not null,
      "expiresAt" timestamptz not null,
      "createdAt" timestamptz default current_timestamp not null,
      "updatedAt" timestamptz default current_timestamp not null
    );
    create index "verification_identifier_idx" on "verification" ("identifier");
    create table "twoFactor" (
      "id" text not null primary key,
      "secret" text not null,
      "backupCodes" text not null,
      "userId" text not null references "user" ("id") on delete cascade,
      "verified" boolean,
      "failedVerificationCount" integer,
      "lockedUntil" timestamptz
    );
    create index "twoFactor_secret_idx" on "twoFactor" ("secret");
    create index "twoFactor_userId_idx" on "twoFactor" ("userId");

    create table profiles (
      id text primary key references "user" ("id") on delete cascade,
      stripe_connect_account_id text unique,
      stripe_connect_onboarding_complete boolean not null default false,
      store_name text,
      store_tagline text,
      store_description text,
      profile_picture_url text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table outbox_emails (
      id bigint generated always as identity primary key,
      to_address text not null,
      subject text not null,
      html text not null,
      text text not null,
      status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
      attempts integer not null default 0,
      last_error text,
      next_attempt_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      sent_at timestamptz
    );
    create index outbox_emails_due_idx on outbox_emails (next_attempt_at) where status = 'pending';

    create table rate_limit_hits (
      key text not null,
      window_start timestamptz not null,
      hits integer not null,
      primary key (key, window_start)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table rate_limit_hits; drop table outbox_emails; drop table profiles;
    drop table "twoFactor"; drop table verification; drop table account; drop table session; drop table "user";
  `.execute(db);
}
