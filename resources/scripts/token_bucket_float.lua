-- A token bucket as many blog posts write it: the tokens and the time of the last refill kept
-- in a hash as floating-point numbers, the time passed in seconds. It looks exact and is not:
-- the time in seconds since 1970 keeps only about a ten-millionth of a second, a difference of
-- two such times is off by as much, and the refill adds that error up, so a request that comes
-- exactly when its token is due may find 0.9999998 of a token and be refused.
--
-- KEYS[1]  the bucket of one client (hash: tokens, ts)
-- ARGV[1]  refill rate, tokens per second   ARGV[2]  capacity
-- ARGV[3]  now, seconds (with decimals)      ARGV[4]  tokens asked
-- Reply: {allowed (1 or 0), tokens left (rounded down)}
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local requested = tonumber(ARGV[4])

local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1]) or capacity
local last = tonumber(state[2]) or now
local elapsed = math.max(0, now - last)
tokens = math.min(capacity, tokens + elapsed * rate)

local allowed = 0
if tokens >= requested then
    tokens = tokens - requested
    allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
return {allowed, math.floor(tokens)}
