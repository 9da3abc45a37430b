-- The most common limiter in production: INCR a counter and give it a TTL of one window when
-- it is new. Its window is that TTL: it starts at a client's first request, not on the clock's
-- boundaries, and it ends when Redis expires the key, on Redis's own clock, whatever time the
-- caller passes. Run it on the real clock ("clock": "redis").
--
-- KEYS[1]  the counter of one client
-- ARGV[1]  limit            ARGV[2]  window, ms
-- Reply: {allowed (1 or 0), remaining, retry_after_ms}
local limit = tonumber(ARGV[1])
local count = redis.call('INCR', KEYS[1])
if count == 1 then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if count > limit then
    return {0, 0, redis.call('PTTL', KEYS[1])}
end
return {1, limit - count, 0}
