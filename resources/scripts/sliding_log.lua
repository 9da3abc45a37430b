-- The same sliding-window log done right: every permit granted is a member of its own (the
-- request's id and the permit's index), so grants in one millisecond all count, and a refusal
-- waits for exactly the grant whose leaving makes room.
--
-- KEYS[1]  the log of one client
-- ARGV[1]  now, ms          ARGV[2]  permits        ARGV[3]  the request's id (unique)
-- ARGV[4]  limit            ARGV[5]  window, ms
-- Reply: {allowed (1 or 0), remaining, retry_after_ms (-1: never)}
local key = KEYS[1]
local now = tonumber(ARGV[1])
local permits = tonumber(ARGV[2])
local limit = tonumber(ARGV[4])
local window = tonumber(ARGV[5])

-- The window is (now - window, now]: a grant exactly one window old no longer counts.
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if permits > limit then
    return {0, limit - count, -1}
end
if count + permits <= limit then
    for i = 1, permits do
        redis.call('ZADD', key, now, ARGV[3] .. ':' .. i)
    end
    redis.call('PEXPIRE', key, window)
    return {1, limit - count - permits, 0}
end
-- Room comes back when the (count + permits - limit)-th oldest grant leaves the window.
local k = count + permits - limit
local entry = redis.call('ZRANGE', key, k - 1, k - 1, 'WITHSCORES')
return {0, limit - count, tonumber(entry[2]) + window - now}
