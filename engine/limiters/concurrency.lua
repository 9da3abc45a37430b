-- Concurrency (in-flight) limiter, Stripe's concurrent-requests limiter: one decision.
-- KEYS[1] {<name>}:leases[:<client>]: a zset of the slots held, member = a slot id, score =
--         the slot's lease expiry (ms).
-- ARGV: limit, permits, now_ms (or 'redis'), expiry (now + lease_ms; with 'redis' lease_ms,
--       shifted here by Redis's time), slot id, ttl_ms (lease_ms + grace: every slot's score is
--       at most the last grant's now + lease_ms).
-- First every slot whose lease has run out (score <= now) is removed: a leaked lease. n = the
-- slots left. permits > limit: refused, never. n + permits <= limit: granted, the slots
-- <id>, <id>:1 .. <id>:<permits - 1> added at the expiry. Otherwise refused, nothing added:
-- the wait is the k-th smallest score - now, k = n + permits - limit (when enough leases run
-- out with no release).
-- Returns one integer, R = limit + 2 (above any remaining and any count of expired slots):
-- granted expired * R + remaining, refused -((retry + 1) * R * R + expired * R + remaining) - 1;
-- or the text "<allowed> <retry> <remaining> <expired> <at_ms>" with Redis's time (the engine
-- does not know at_ms), a lowered limit under more slots, or a figure past 2^53.
-- No local functions, numbers converted by arithmetic, texts passed on as they came (the
-- expiry, now), permits of '1' not converted (see docs/architecture.md, "Replies").
local limit = ARGV[1] + 0
local permits = 1
if ARGV[2] ~= '1' then
    permits = ARGV[2] + 0
end
local now, nowText, expiry = nil, ARGV[3], ARGV[4]
local redisTime = nowText == 'redis'
if redisTime then
    local t = redis.call('time')
    now = t[1] * 1000 + math.floor(t[2] / 1000)
    nowText = string.format('%d', now)
    expiry = string.format('%d', now + expiry)
else
    now = nowText + 0
end
local expired = redis.call('zremrangebyscore', KEYS[1], '-inf', nowText)
local n = redis.call('zcard', KEYS[1])
local remaining = limit - n
local R = limit + 2
if permits <= limit and n + permits <= limit then
    local id = ARGV[5]
    redis.call('zadd', KEYS[1], expiry, id)
    for i = 1, permits - 1 do
        redis.call('zadd', KEYS[1], expiry, id .. ':' .. i)
    end
    redis.call('pexpire', KEYS[1], ARGV[6])
    remaining = remaining - permits
    if not redisTime and expired < R then
        return expired * R + remaining
    end
    return string.format('1 0 %d %d %d', remaining, expired, now)
end
local retry = -1
if permits <= limit then
    local kth = redis.call('zrange', KEYS[1], n + permits - limit - 1, n + permits - limit - 1,
        'withscores')
    retry = kth[2] - now
end
if not redisTime and remaining >= 0 and expired < R then
    local packed = (retry + 1) * R * R + expired * R + remaining
    if packed < 9007199254740992 then
        return -packed - 1
    end
end
return string.format('0 %d %d %d %d', retry, remaining, expired, now)
