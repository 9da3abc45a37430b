-- The multi-rule sliding-window log people copy into their services (blog posts and answers
-- on rate limiting with Redis sorted sets; our own rendering of the common shape): drop entries
-- older than the longest window, ZCOUNT per rule, refuse at the first rule that is full,
-- otherwise ZADD the request under a UUID member and PEXPIRE the key. One member per request
-- (each request is one permit), no exact wait.
-- KEYS[1] log zset
-- ARGV: now_ms, uuid, ttl_ms, rule count, then limit and window_ms per rule
-- Returns 1 granted, 0 refused.
local now = tonumber(ARGV[1])
local rules = tonumber(ARGV[4])
local longest = 0
for r = 1, rules do
    longest = math.max(longest, tonumber(ARGV[4 + 2 * r]))
end
redis.call('zremrangebyscore', KEYS[1], '-inf', now - longest)
for r = 1, rules do
    local limit = tonumber(ARGV[3 + 2 * r])
    local window = tonumber(ARGV[4 + 2 * r])
    if redis.call('zcount', KEYS[1], '(' .. (now - window), '+inf') >= limit then
        return 0
    end
end
redis.call('zadd', KEYS[1], now, ARGV[2])
redis.call('pexpire', KEYS[1], ARGV[3])
return 1
