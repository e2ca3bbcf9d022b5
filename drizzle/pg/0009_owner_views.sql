-- Views for people who query a hub's database (README "Look inside the database"): the same names and columns as
-- drizzle/0019_owner_views.sql. Times are text (UTC, and the save's region's zone from PostgreSQL's tz database); states
-- are words; no key, token, webhook URL or Bark key is a column here. A migration that changes a column these read
-- (PostgreSQL refuses to drop or retype it) drops and re-creates the view.
CREATE FUNCTION view_utc_time(ms bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(to_timestamp(ms / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
$$;
--> statement-breakpoint
-- "2026-03-23 18:31:37 UTC+8": the moment in the zone of the region's players, with its offset then; null without a region.
CREATE FUNCTION view_local_time(ms bigint, region text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT to_char(local, 'YYYY-MM-DD HH24:MI:SS') || ' UTC' || CASE WHEN off > 0 THEN '+' ELSE '' END || off
  FROM (
    SELECT local, (extract(epoch FROM local - (at AT TIME ZONE 'UTC')) / 3600)::int AS off
    FROM (
      SELECT at, at AT TIME ZONE zone AS local
      FROM (SELECT to_timestamp(ms / 1000) AS at, CASE region WHEN 'cn' THEN 'Asia/Shanghai' WHEN 'tw' THEN 'Asia/Taipei' WHEN 'jp' THEN 'Asia/Tokyo' WHEN 'kr' THEN 'Asia/Seoul' WHEN 'en' THEN 'America/Los_Angeles' END AS zone) z
      WHERE zone IS NOT NULL AND at IS NOT NULL
    ) l
  ) o
$$;
--> statement-breakpoint
CREATE VIEW view_saves AS
SELECT s.id AS save_id, s.player_id, p.name AS player_name, s.region,
  CASE
    WHEN s.data_type = 'mysekai_birthday_party' AND s.partial THEN 'party delivery'
    WHEN s.partial THEN 'partial'
    WHEN s.drops_fingerprint IS NULL AND a.save_id IS NULL THEN 'not read yet'
    WHEN s.data_type = 'mysekai_birthday_party' THEN 'party refresh'
    ELSE 'full save'
  END AS kind,
  s.source,
  view_utc_time(s.received_at) AS received_utc,
  view_local_time(s.received_at, s.region) AS received_local,
  view_utc_time(a.created_at) AS archived_utc,
  view_local_time(a.created_at, s.region) AS archived_local,
  (floor(extract(epoch FROM now()))::bigint - s.received_at / 1000) / 3600 AS hours_ago,
  CASE j.state
    WHEN 'pending' THEN 'waiting'
    WHEN 'pending_retry' THEN 'retrying'
    WHEN 'waiting_for_key' THEN 'waiting for a key'
    WHEN 'running' THEN 'running'
    WHEN 'failed' THEN 'failed'
    ELSE 'done'
  END AS state,
  j.stage,
  CASE WHEN j.state IN ('failed', 'pending_retry', 'waiting_for_key') THEN j.last_error END AS failure,
  a.rel_path AS archive_folder,
  s.size AS size_bytes
FROM saves s
LEFT JOIN archives a ON a.save_id = s.id
LEFT JOIN jobs j ON j.save_id = s.id
LEFT JOIN players p ON p.player_id = s.player_id;
--> statement-breakpoint
CREATE VIEW view_pushes AS
SELECT d.id AS push_id, d.save_id, s.player_id, d.channel, d.target AS route,
  CASE WHEN d.state = 'pending' AND d.last_error IS NOT NULL THEN 'retrying' WHEN d.state = 'pending' THEN 'waiting' ELSE d.state END AS state,
  d.attempts, d.last_error,
  view_utc_time(d.sent_at) AS sent_utc,
  CASE WHEN d.state = 'pending' THEN view_utc_time(d.next_attempt_at) END AS next_try_utc,
  view_utc_time(d.created_at) AS created_utc
FROM deliveries d
JOIN saves s ON s.id = d.save_id;
--> statement-breakpoint
CREATE VIEW view_players AS
SELECT i.player_id, p.name,
  view_utc_time(sv.last_received) AS last_save_utc,
  view_utc_time(pu.last_sent) AS last_push_utc,
  coalesce(sv.saves, 0) AS saves,
  coalesce(sv.failed, 0) AS failed_saves,
  coalesce(pu.sent, 0) AS pushes_sent,
  coalesce(pu.failed, 0) AS pushes_failed
FROM (SELECT player_id FROM saves UNION SELECT player_id FROM players) i
LEFT JOIN players p ON p.player_id = i.player_id
LEFT JOIN (
  SELECT s.player_id, max(s.received_at) AS last_received, count(*) AS saves, sum(CASE WHEN j.state = 'failed' THEN 1 ELSE 0 END) AS failed
  FROM saves s LEFT JOIN jobs j ON j.save_id = s.id GROUP BY s.player_id
) sv ON sv.player_id = i.player_id
LEFT JOIN (
  -- Pushes to the player's channels; a bot's data webhook is not one.
  SELECT s.player_id, max(d.sent_at) AS last_sent, sum(CASE WHEN d.state = 'sent' THEN 1 ELSE 0 END) AS sent, sum(CASE WHEN d.state = 'failed' THEN 1 ELSE 0 END) AS failed
  FROM deliveries d JOIN saves s ON s.id = d.save_id WHERE d.channel <> 'data-webhook' GROUP BY s.player_id
) pu ON pu.player_id = i.player_id;
--> statement-breakpoint
CREATE VIEW view_queue AS
SELECT job_id, save_id, report_id, player_id, stage, state, attempts, last_error, since_utc, seconds,
  CASE
    WHEN seconds < 60 THEN seconds || ' s'
    WHEN seconds < 3600 THEN (seconds / 60) || ' min'
    WHEN seconds < 86400 THEN (seconds / 3600) || ' h ' || (seconds % 3600 / 60) || ' min'
    ELSE (seconds / 86400) || ' d ' || (seconds % 86400 / 3600) || ' h'
  END AS for_how_long,
  next_run_utc
FROM (
  SELECT j.id AS job_id, j.save_id, j.report_id, s.player_id, j.stage,
    CASE j.state WHEN 'pending' THEN 'waiting' WHEN 'pending_retry' THEN 'retrying' WHEN 'waiting_for_key' THEN 'waiting for a key' ELSE j.state END AS state,
    j.attempts, j.last_error,
    -- Waiting or running: since it was queued; failed: since it failed.
    view_utc_time(CASE WHEN j.state = 'failed' THEN j.updated_at ELSE j.created_at END) AS since_utc,
    greatest(0, floor(extract(epoch FROM now()))::bigint - CASE WHEN j.state = 'failed' THEN j.updated_at ELSE j.created_at END / 1000) AS seconds,
    CASE WHEN j.state IN ('pending', 'pending_retry') THEN view_utc_time(j.run_at) END AS next_run_utc
  FROM jobs j
  LEFT JOIN saves s ON s.id = j.save_id
  WHERE j.state <> 'done'
) q;
