-- The common Redis form of nginx's limit_req (as APISIX-style limit-req keeps it in Redis):
-- excess and last in a hash, the leak as a float of requests per millisecond.
-- KEYS[1] the state hash
-- ARGV: now_ms, rate, period_ms, burst, permits, ttl_ms
-- Returns 1 granted (nginx would hold it excess / leak ms), 0 refused.
local now = tonumber(ARGV[1])
local leak = tonumber(ARGV[2]) / tonumber(ARGV[3])
local burst = tonumber(ARGV[4])
local state = redis.call('hmget', KEYS[1], 'excess', 'last')
local excess = 0
if state[1] then
    excess = math.max(tonumber(state[1]) - leak * (now - tonumber(state[2])) + 1, 0)
end
excess = excess + tonumber(ARGV[5]) - 1
if excess > burst then
    return 0
end
redis.call('hset', KEYS[1], 'excess', excess, 'last', now)
redis.call('pexpire', KEYS[1], ARGV[6])
return 1
