-- GCRA (go-redis redis_rate, redis-cell), one decision, in exact integer arithmetic.
-- T = period_ms / rate is a fraction, so times are kept as q + r/rate ms with 0 <= r < rate;
-- every product stays below 2^53 within the parser's limits (see limits in limiter_spec).
-- KEYS[1] {<name>}:tat[:<client>] = "<q> <r> <rate>/<period>/<burst>"
-- ARGV: rate, period_ms, burst, permits, now_ms, ttl_scale (real ms per virtual ms), grace_ms
-- Returns the text "allowed retry_after_ms remaining at_ms config_reset delay_ms" (one text
-- reply: a table reply costs Redis more than the rest of a cheap decision).
local function reply(allowed, retry, remaining, at, reset, delay)
    return string.format('%d %d %d %d %d %d', allowed, retry, remaining, at, reset, delay)
end

local rate = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local permits = tonumber(ARGV[4])
-- time: redis (limiter.h): ARGV[5] is 'redis' and the script reads Redis's clock.
local now
if ARGV[5] == 'redis' then
    local t = redis.call('time')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
    now = tonumber(ARGV[5])
end
local config = ARGV[1] .. '/' .. ARGV[2] .. '/' .. ARGV[3]

-- floor(a / b) for integers a (any sign) and b > 0, exact where a / b in doubles may round.
local function floordiv(a, b)
    local q = math.floor(a / b)
    if q * b > a then
        q = q - 1
    elseif (q + 1) * b <= a then
        q = q + 1
    end
    return q
end

local reset = 0
local tq, tr = now, 0
local state = redis.call('get', KEYS[1])
if state then
    local q, r, cfg = string.match(state, '^(%-?%d+) (%d+) (%S+)$')
    if not q then
        return redis.error_reply('ratelab: ' .. KEYS[1] .. ' does not hold a GCRA state')
    end
    if cfg ~= config then
        reset = 1
    else
        q, r = tonumber(q), tonumber(r)
        if q > now or (q == now and r > 0) then
            tq, tr = q, r  -- tat = max(TAT, now)
        end
    end
end

-- remaining before this request: floor((now + tau - tat) / T), in units of 1/rate ms.
local tauNum = burst * period
local function remainingAt(q, r)
    local d = (now - q) * rate - r + tauNum
    if d < 0 then
        return 0
    end
    return floordiv(d, period)
end

if reset == 1 then
    redis.call('del', KEYS[1])  -- written under another config
end

if permits > burst then
    return reply(0, -1, remainingAt(tq, tr), now, reset, 0)
end

-- new_tat = tat + permits * T
local num = tr + permits * period
local carry = floordiv(num, rate)
local nq, nr = tq + carry, num - carry * rate
-- allow_at = new_tat - tau
local tauQ = floordiv(tauNum, rate)
local aq, ar = nq - tauQ, nr - (tauNum - tauQ * rate)
if ar < 0 then
    ar = ar + rate
    aq = aq - 1
end

if aq < now or (aq == now and ar == 0) then
    -- The state may go once TAT has passed: absent = now.
    local ttl = math.ceil((nq - now + 1) * tonumber(ARGV[6])) + tonumber(ARGV[7])
    redis.call('set', KEYS[1], string.format('%d %d ', nq, nr) .. config, 'PX',
               string.format('%d', ttl))
    return reply(1, 0, remainingAt(nq, nr), now, reset, 0)
end
local retry = aq + (ar > 0 and 1 or 0) - now
return reply(0, retry, remainingAt(tq, tr), now, reset, 0)
