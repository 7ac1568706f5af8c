// The Lua scripts of the Redis task store: on a single Redis one script per create and per update;
// on a cluster, where a task's keys and its caller's sit in two slots, the same pieces in one script
// per slot (see RedisTaskStore).
import { RedisScript } from './redis-script.js';

/**
 * Lua for a caller's three keys (its live and done sets, its hash of bytes, which holds each counted
 * task's bytes under `t:<id>` and their sum under `total`). `forget_expired` takes its expired
 * tasks out of all three. `keep_together` gives the three one expiry, the latest of theirs and
 * `ms`: a set that expired before the hash would leave bytes of tasks nobody can find to forget.
 */
const CALLER_KEYS = `
local function forget_expired(live, done, sizes, now)
  for _, set in ipairs({live, done}) do
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', set, '-inf', now)) do
      local bytes = redis.call('HGET', sizes, 't:' .. id)
      if bytes then
        redis.call('HINCRBY', sizes, 'total', -tonumber(bytes))
        redis.call('HDEL', sizes, 't:' .. id)
      end
    end
    redis.call('ZREMRANGEBYSCORE', set, '-inf', now)
  end
end
local function keep_together(live, done, sizes, ms)
  local keys = {live, done, sizes}
  for _, key in ipairs(keys) do ms = math.max(ms, redis.call('PTTL', key)) end
  for _, key in ipairs(keys) do
    if redis.call('PTTL', key) ~= ms and redis.call('EXISTS', key) == 1 then redis.call('PEXPIRE', key, ms) end
  end
end
`;

/** Lua: the bytes of a new task (its two values), and the quota check of a create (returns when refused). */
const CREATE_QUOTA = `
local bytes = #ARGV[1] + #ARGV[2]
if live and ARGV[6] == '1' then
  forget_expired(live, done, sizes, ARGV[5])
  local running = redis.call('ZCARD', live)
  local stored = running + redis.call('ZCARD', done)
  local total = tonumber(redis.call('HGET', sizes, 'total') or '0')
  local maxBytes = tonumber(ARGV[11])
  if running >= tonumber(ARGV[7]) or stored >= tonumber(ARGV[8]) or (maxBytes > 0 and total + bytes > maxBytes) then
    local oldest = redis.call('ZRANGE', done, 0, 0, 'WITHSCORES')
    return {'quota', running, stored, oldest[2] or '', total, bytes}
  end
end`;

/** Lua: a create's writes to the task's two keys (refused when the task exists). */
const CREATE_TASK = `
if redis.call('EXISTS', status) == 1 then return {'exists'} end
redis.call('SET', status, ARGV[1], 'PX', ARGV[3])
redis.call('SET', args, ARGV[2], 'PX', ARGV[3])`;

/** Lua: a create's writes to the caller's keys. */
const CREATE_COUNT = `
if live then
  redis.call('ZADD', ARGV[10] == '1' and done or live, ARGV[4], ARGV[9])
  redis.call('HSET', sizes, 't:' .. ARGV[9], #ARGV[1] + #ARGV[2])
  redis.call('HINCRBY', sizes, 'total', #ARGV[1] + #ARGV[2])
  keep_together(live, done, sizes, tonumber(ARGV[3]))
end`;

/**
 * Creates a task: its status and its arguments (two keys, same lifetime) and, for a task with a
 * caller, its id in the caller's set of live (or, created finished, done) tasks, scored by
 * `expiresAt`, and its bytes (those of the two values) in the caller's hash of bytes. With a quota,
 * first forgets the caller's expired tasks and refuses past any bound, all in one atomic step, so
 * concurrent creates of one caller on any nodes cannot pass it together.
 * KEYS: status, arguments[, live set, done set, bytes hash]. ARGV: status JSON, arguments JSON,
 * lifetime ms, expiresAt, now, check quota (1/0), max running, max stored, task id, created
 * finished (1/0), max bytes (0: none).
 */
export const CREATE = new RedisScript(`${CALLER_KEYS}
local status, args, live, done, sizes = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
if redis.call('EXISTS', status) == 1 then return {'exists'} end
${CREATE_QUOTA}
${CREATE_TASK}
${CREATE_COUNT}
return {'ok'}`);

/**
 * On a cluster, where a task's keys and its caller's are in different slots, a create is two
 * scripts: this one counts the task against its caller first (quota check and count in one atomic
 * step, so the bounds hold as on a single Redis), then {@link CREATE_TASK_ONLY} writes the task.
 * KEYS: live set, done set, bytes hash. ARGV: as {@link CREATE}.
 */
export const CREATE_CALLER_ONLY = new RedisScript(`${CALLER_KEYS}
local live, done, sizes = KEYS[1], KEYS[2], KEYS[3]
${CREATE_QUOTA}
${CREATE_COUNT}
return {'ok'}`);

/** The task half of a create on a cluster. KEYS: status, arguments. ARGV: as {@link CREATE}. */
export const CREATE_TASK_ONLY = new RedisScript(`
local status, args = KEYS[1], KEYS[2]
${CREATE_TASK}
return {'ok'}`);

/** Takes a task that was counted but never written out of its caller's keys. KEYS: live, done, bytes. ARGV: task id. */
export const UNCOUNT = new RedisScript(`
local field = 't:' .. ARGV[1]
local bytes = redis.call('HGET', KEYS[3], field)
if bytes then
  redis.call('HINCRBY', KEYS[3], 'total', -tonumber(bytes))
  redis.call('HDEL', KEYS[3], field)
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`);

/** Lua: what an update changes in the caller's bytes, and the budget. */
const UPDATE_LOCALS = `
local field = 't:' .. ARGV[4]
local growth = #ARGV[2] - #ARGV[1]
local maxBytes = tonumber(ARGV[7])`;

/** Lua: refuses (returns) a growth past the caller's byte budget, after forgetting its expired tasks. */
const UPDATE_BUDGET = `
if sizes and growth > 0 and maxBytes > 0 and redis.call('HEXISTS', sizes, field) == 1 then
  if tonumber(redis.call('HGET', sizes, 'total') or '0') + growth > maxBytes then
    forget_expired(live, done, sizes, ARGV[8])
    local total = tonumber(redis.call('HGET', sizes, 'total') or '0')
    if total + growth > maxBytes then
      local oldest = redis.call('ZRANGE', done, 0, 0, 'WITHSCORES')
      return {'quota', total, oldest[2] or '', tonumber(redis.call('HGET', sizes, field) or '0') + growth, growth}
    end
  end
end`;

/** Lua: counts the growth in the caller's bytes (for a task counted there). */
const UPDATE_COUNT = `
if sizes and growth ~= 0 and redis.call('HEXISTS', sizes, field) == 1 then
  redis.call('HINCRBY', sizes, field, growth)
  redis.call('HINCRBY', sizes, 'total', growth)
end`;

/** Lua: moves a task that just finished from its caller's live set to its done set. */
const UPDATE_FINISH = `
if live and ARGV[6] == '1' then
  redis.call('ZREM', live, ARGV[4])
  redis.call('ZADD', done, ARGV[5], ARGV[4])
  keep_together(live, done, sizes, tonumber(ARGV[3]))
end`;

/**
 * Writes the new status JSON only when the stored one is still the JSON the change was computed
 * from, and counts the difference in the caller's bytes (for a task created with its bytes
 * counted). With a budget, a write that grows the task past it (after forgetting the caller's
 * expired tasks) is refused and nothing changes. A task that just finished moves from its caller's
 * live set to its done set.
 * KEYS: status[, live set, done set, bytes hash]. ARGV: current JSON, new JSON, lifetime ms, task
 * id, expiresAt, finished (1/0), max bytes (0: none), now.
 */
export const COMPARE_AND_SET = new RedisScript(`${CALLER_KEYS}
local status, live, done, sizes = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
if redis.call('GET', status) ~= ARGV[1] then return {0} end
${UPDATE_LOCALS}
${UPDATE_BUDGET}
redis.call('SET', status, ARGV[2], 'PX', ARGV[3])
${UPDATE_COUNT}
${UPDATE_FINISH}
return {1}`);

/**
 * On a cluster an update is up to three scripts: {@link COUNT_GROWTH} (budget check and count, in
 * the caller's slot; undone when the write then finds the task changed), {@link SET_IF_CURRENT}
 * (the task's slot), {@link FINISH} (the caller's slot). ARGV of all three: as {@link COMPARE_AND_SET}.
 * KEYS: live set, done set, bytes hash.
 */
export const COUNT_GROWTH = new RedisScript(`${CALLER_KEYS}
local live, done, sizes = KEYS[1], KEYS[2], KEYS[3]
${UPDATE_LOCALS}
${UPDATE_BUDGET}
${UPDATE_COUNT}
return {1}`);

/** The task half of an update on a cluster: the compare-and-set of its status. KEYS: status. */
export const SET_IF_CURRENT = new RedisScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {0} end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return {1}`);

/** A finished task's move on a cluster. KEYS: live set, done set, bytes hash. */
export const FINISH = new RedisScript(`${CALLER_KEYS}
local live, done, sizes = KEYS[1], KEYS[2], KEYS[3]
${UPDATE_FINISH}
return {1}`);
