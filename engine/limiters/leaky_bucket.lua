-- Leaky bucket as nginx limit_req (and APISIX limit-req) decides, in milli-requests, one decision.
-- A request of p permits is p requests at the same instant.
-- KEYS[1] {<name>}:lb[:<client>] = "<excess> <last_ms> <rate>/<period_ms>/<burst>"
-- ARGV: rate, period_ms, burst, nodelay (0/1), permits, now_ms, ttl_scale, grace_ms
-- Returns the text "allowed retry_after_ms remaining at_ms config_reset delay_ms" (one text
-- reply: a table reply costs Redis more than the rest of a cheap decision).
local function reply(allowed, retry, remaining, at, reset, delay)
    return string.format('%d %d %d %d %d %d', allowed, retry, remaining, at, reset, delay)
end

local rate = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local nodelay = ARGV[4] == '1'
local permits = tonumber(ARGV[5])
-- time: redis (limiter.h): ARGV[6] is 'redis' and the script reads Redis's clock.
local now
if ARGV[6] == 'redis' then
    local t = redis.call('time')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
    now = tonumber(ARGV[6])
end
local config = ARGV[1] .. '/' .. ARGV[2] .. '/' .. ARGV[3]
local R = rate * 1000  -- milli-requests leaked per period_ms

local function floordiv(a, b)  -- exact floor(a / b), b > 0
    local q = math.floor(a / b)
    if q * b > a then
        q = q - 1
    elseif (q + 1) * b <= a then
        q = q + 1
    end
    return q
end
local function ceildiv(a, b)
    return -floordiv(-a, b)
end

local reset = 0
local excess, last = nil, nil
local state = redis.call('get', KEYS[1])
if state then
    local e, l, cfg = string.match(state, '^(%d+) (%-?%d+) (%S+)$')
    if not e then
        return redis.error_reply('ratelab: ' .. KEYS[1] .. ' does not hold a leaky bucket state')
    end
    if cfg ~= config then
        reset = 1
        redis.call('del', KEYS[1])
    else
        excess, last = tonumber(e), tonumber(l)
    end
end

-- x: the level this request finds, new key = 0 (nginx's new node), else
-- max(E - floor(R * elapsed / period) + 1000, 0). Past the full drain time x is 0, which keeps
-- R * elapsed below 2^53 whatever the gap.
local x = 0
local drainMs = 0
if excess then
    drainMs = ceildiv((excess + 1000) * period, R)
    local elapsed = math.max(0, now - last)
    if elapsed < drainMs then
        x = math.max(excess - floordiv(R * elapsed, period) + 1000, 0)
    end
end
local e = x + 1000 * (permits - 1)

if permits > burst + 1 then
    return reply(0, -1, math.max(0, floordiv(1000 * burst - x, 1000) + 1), now, reset, 0)
end
if e <= 1000 * burst then
    local keep = math.max(last or now, now)  -- a lagging clock never moves last backwards
    local ttl = math.ceil((ceildiv((e + 1000) * period, R) + 1) * tonumber(ARGV[7])) +
                tonumber(ARGV[8])
    redis.call('set', KEYS[1], string.format('%d %d ', e, keep) .. config, 'PX',
               string.format('%d', ttl))
    local delay = 0
    if not nodelay then
        delay = floordiv(e * period, R)
    end
    return reply(1, 0, floordiv(1000 * burst - e, 1000), now, reset, delay)
end

-- The smallest whole wait w >= 1 at which the level has leaked enough:
-- E - floor(R * (elapsed + w) / period) + 1000 <= 1000 * (burst - permits + 1).
local need = excess + 1000 - 1000 * (burst - permits + 1)
local elapsed = math.max(0, now - last)
local retry = math.max(1, ceildiv(need * period, R) - elapsed)
return reply(0, retry, math.max(0, floordiv(1000 * burst - x, 1000) + 1), now, reset, 0)
