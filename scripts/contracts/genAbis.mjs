// @ts-check
// Writes the ABI data files of src/core/contracts/abis/ (committed; run again only to refresh them):
//   precompiles.json  the Cosmos EVM static precompiles at their fixed addresses, with the ABIs
//                     cosmos/evm v0.3.2 publishes (precompiles/*/abi.json in Go's module cache:
//                     `go mod download github.com/cosmos/evm@v0.3.2` fills it)
//   standard.json     ERC-20, ERC-721, ERC-1155 and ERC-4626 (viem's ABIs)
//   signatures.json   the curated part of the offline table of common functions, events and errors
//                     (the table is every item of the two files above plus these) (OpenZeppelin, WETH, Uniswap, Multicall, Safe…)
// Usage: node scripts/contracts/genAbis.mjs [path to cosmos/evm@v0.3.2] && npx prettier --write src/core/contracts/abis
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { erc1155Abi, erc20Abi, erc4626Abi, erc721Abi, parseAbiItem, toEventSelector, toFunctionSelector } from 'viem';

const OUT = path.join('src', 'core', 'contracts', 'abis');
const modCache = () => execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
const EVM = process.argv[2] ?? path.join(modCache(), 'github.com', 'cosmos', 'evm@v0.3.2');

/** Address, name, the abi.json folder (none: a precompile without a Solidity interface). */
const PRECOMPILES = [
  [
    '0x0000000000000000000000000000000000000100',
    'p256',
    undefined,
    'P-256 signature verification (RIP-7212): input hash, r, s, x, y (160 bytes), output 1 when valid',
  ],
  ['0x0000000000000000000000000000000000000400', 'bech32', 'bech32'],
  ['0x0000000000000000000000000000000000000800', 'staking', 'staking'],
  ['0x0000000000000000000000000000000000000801', 'distribution', 'distribution'],
  ['0x0000000000000000000000000000000000000802', 'ics20', 'ics20'],
  ['0x0000000000000000000000000000000000000803', 'vesting', undefined, 'vesting (its address is reserved; cosmos/evm v0.3.2 publishes no ABI for it)'],
  ['0x0000000000000000000000000000000000000804', 'bank', 'bank'],
  ['0x0000000000000000000000000000000000000805', 'gov', 'gov'],
  ['0x0000000000000000000000000000000000000806', 'slashing', 'slashing'],
  ['0x0000000000000000000000000000000000000807', 'evidence', 'evidence'],
];

/** Only what decoding needs: names, types, components, indexed, stateMutability. */
function slim(item) {
  const param = (p) => ({
    name: p.name ?? '',
    type: p.type,
    ...(p.indexed ? { indexed: true } : {}),
    ...(p.components ? { components: p.components.map(param) } : {}),
    ...(p.internalType && /^(struct|enum|contract) /.test(p.internalType) ? { internalType: p.internalType } : {}),
  });
  const out = { type: item.type };
  if (item.name) out.name = item.name;
  if (item.inputs) out.inputs = item.inputs.map(param);
  if (item.outputs) out.outputs = item.outputs.map(param);
  if (item.stateMutability) out.stateMutability = item.stateMutability;
  if (item.anonymous) out.anonymous = true;
  return out;
}

const precompiles = PRECOMPILES.map(([address, name, dir, note]) => {
  if (!dir) return { address, name, note, abi: [] };
  const file = path.join(EVM, 'precompiles', dir, 'abi.json');
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  return { address, name, contractName: json.contractName, abi: json.abi.map(slim) };
});

const standard = [
  { name: 'ERC-20', abi: erc20Abi.map(slim) },
  { name: 'ERC-721', abi: erc721Abi.map(slim) },
  { name: 'ERC-1155', abi: erc1155Abi.map(slim) },
  { name: 'ERC-4626', abi: erc4626Abi.map(slim) },
];

const CURATED = [
  // Ownable, AccessControl, Pausable, proxies, initializers (OpenZeppelin 5)
  'function owner() view returns (address)',
  'function transferOwnership(address newOwner)',
  'function renounceOwnership()',
  'function pendingOwner() view returns (address)',
  'function acceptOwnership()',
  'event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)',
  'event OwnershipTransferStarted(address indexed previousOwner, address indexed newOwner)',
  'function hasRole(bytes32 role, address account) view returns (bool)',
  'function grantRole(bytes32 role, address account)',
  'function revokeRole(bytes32 role, address account)',
  'function renounceRole(bytes32 role, address callerConfirmation)',
  'function getRoleAdmin(bytes32 role) view returns (bytes32)',
  'function DEFAULT_ADMIN_ROLE() view returns (bytes32)',
  'event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)',
  'event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)',
  'event RoleAdminChanged(bytes32 indexed role, bytes32 indexed previousAdminRole, bytes32 indexed newAdminRole)',
  'function paused() view returns (bool)',
  'function pause()',
  'function unpause()',
  'event Paused(address account)',
  'event Unpaused(address account)',
  'event Upgraded(address indexed implementation)',
  'event AdminChanged(address previousAdmin, address newAdmin)',
  'event BeaconUpgraded(address indexed beacon)',
  'event Initialized(uint64 version)',
  'function upgradeTo(address newImplementation)',
  'function upgradeToAndCall(address newImplementation, bytes data) payable',
  'function implementation() view returns (address)',
  'function proxiableUUID() view returns (bytes32)',
  'function initialize()',
  'function mint(address to, uint256 amount)',
  'function burn(uint256 amount)',
  'function burnFrom(address account, uint256 amount)',
  'function safeMint(address to, uint256 tokenId)',
  'function increaseAllowance(address spender, uint256 addedValue) returns (bool)',
  'function decreaseAllowance(address spender, uint256 subtractedValue) returns (bool)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function nonces(address owner) view returns (uint256)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function supportsInterface(bytes4 interfaceId) view returns (bool)',
  'function version() view returns (string)',
  // OpenZeppelin 5 custom errors
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
  'error ERC721InvalidOwner(address owner)',
  'error ERC721NonexistentToken(uint256 tokenId)',
  'error ERC721IncorrectOwner(address sender, uint256 tokenId, address owner)',
  'error ERC721InvalidSender(address sender)',
  'error ERC721InvalidReceiver(address receiver)',
  'error ERC721InsufficientApproval(address operator, uint256 tokenId)',
  'error ERC721InvalidApprover(address approver)',
  'error ERC721InvalidOperator(address operator)',
  'error ERC1155InsufficientBalance(address sender, uint256 balance, uint256 needed, uint256 tokenId)',
  'error ERC1155InvalidSender(address sender)',
  'error ERC1155InvalidReceiver(address receiver)',
  'error ERC1155MissingApprovalForAll(address operator, address owner)',
  'error ERC1155InvalidApprover(address approver)',
  'error ERC1155InvalidOperator(address operator)',
  'error ERC1155InvalidArrayLength(uint256 idsLength, uint256 valuesLength)',
  'error OwnableUnauthorizedAccount(address account)',
  'error OwnableInvalidOwner(address owner)',
  'error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)',
  'error AccessControlBadConfirmation()',
  'error EnforcedPause()',
  'error ExpectedPause()',
  'error ReentrancyGuardReentrantCall()',
  'error SafeERC20FailedOperation(address token)',
  'error SafeERC20FailedDecreaseAllowance(address spender, uint256 currentAllowance, uint256 requestedDecrease)',
  'error AddressEmptyCode(address target)',
  'error AddressInsufficientBalance(address account)',
  'error FailedInnerCall()',
  'error FailedCall()',
  'error InsufficientBalance(uint256 balance, uint256 needed)',
  'error InvalidInitialization()',
  'error NotInitializing()',
  'error ERC1967InvalidImplementation(address implementation)',
  'error ERC1967NonPayable()',
  'error UUPSUnauthorizedCallContext()',
  'error ERC2612ExpiredSignature(uint256 deadline)',
  'error ERC2612InvalidSigner(address signer, address owner)',
  'error InvalidAccountNonce(address account, uint256 currentNonce)',
  'error ECDSAInvalidSignature()',
  'error ECDSAInvalidSignatureLength(uint256 length)',
  'error ECDSAInvalidSignatureS(bytes32 s)',
  'error MathOverflowedMulDiv()',
  'error SafeCastOverflowedUintDowncast(uint8 bits, uint256 value)',
  'error Unauthorized()',
  'error InvalidAddress()',
  'error ZeroAddress()',
  'error InvalidAmount()',
  'error TransferFailed()',
  // WETH
  'function deposit() payable',
  'function withdraw(uint256 wad)',
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
  // Multicall
  'function multicall(bytes[] data) returns (bytes[] results)',
  'function multicall(uint256 deadline, bytes[] data) returns (bytes[] results)',
  'function aggregate((address target, bytes callData)[] calls) returns (uint256 blockNumber, bytes[] returnData)',
  'function tryAggregate(bool requireSuccess, (address target, bytes callData)[] calls) returns ((bool success, bytes returnData)[] returnData)',
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
  'function aggregate3Value((address target, bool allowFailure, uint256 value, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
  'function getEthBalance(address addr) view returns (uint256 balance)',
  'function getBlockNumber() view returns (uint256 blockNumber)',
  'function getCurrentBlockTimestamp() view returns (uint256 timestamp)',
  // Uniswap V2
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)',
  'function removeLiquidity(address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB)',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
  'function createPair(address tokenA, address tokenB) returns (address pair)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function factory() view returns (address)',
  'function WETH() view returns (address)',
  'function sync()',
  'function skim(address to)',
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Mint(address indexed sender, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)',
  // Uniswap V3
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  'event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)',
  'function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)',
  'function exactInput((bytes path, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum) params) payable returns (uint256 amountOut)',
  'function exactOutputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountIn)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function fee() view returns (uint24)',
  'function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)',
  // Safe
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)',
  'function getOwners() view returns (address[])',
  'function getThreshold() view returns (uint256)',
  'event ExecutionSuccess(bytes32 indexed txHash, uint256 payment)',
  'event ExecutionFailure(bytes32 indexed txHash, uint256 payment)',
  // Common admin and utility calls
  'function setOwner(address newOwner)',
  'function setAdmin(address newAdmin)',
  'function admin() view returns (address)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function claim()',
  'function stake(uint256 amount)',
  'function unstake(uint256 amount)',
  'function execute(address target, uint256 value, bytes data) payable returns (bytes)',
  'function executeBatch(address[] targets, uint256[] values, bytes[] datas)',
  'function delegate(address delegatee)',
  'function delegates(address account) view returns (address)',
  'function getVotes(address account) view returns (uint256)',
  'event DelegateChanged(address indexed delegator, address indexed fromDelegate, address indexed toDelegate)',
  'event DelegateVotesChanged(address indexed delegate, uint256 previousVotes, uint256 newVotes)',
  'event Received(address sender, uint256 amount)',
  'event Claimed(address indexed account, uint256 amount)',
  'event Staked(address indexed user, uint256 amount)',
  'event Withdrawn(address indexed user, uint256 amount)',
  'event RewardPaid(address indexed user, uint256 reward)',
  // EntryPoint (ERC-4337 v0.6/v0.7)
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
  'function getNonce(address sender, uint192 key) view returns (uint256 nonce)',
  // Create2 deployers, Permit2
  'function deploy(bytes32 salt, bytes initCode) returns (address)',
  'function safeCreate2(bytes32 salt, bytes initializationCode) payable returns (address deploymentAddress)',
  'event ContractCreation(address indexed newContract)',
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
];

const items = new Map();
const add = (item, origin) => {
  if (item.type !== 'function' && item.type !== 'event' && item.type !== 'error') return;
  const sig = `${item.name}(${(item.inputs ?? []).map(canonical).join(',')})`;
  const key = `${item.type} ${sig} ${(item.inputs ?? []).map((p) => (p.indexed ? 'i' : '-')).join('')}`;
  if (!items.has(key)) items.set(key, { ...slim(item), origin });
};
function canonical(p) {
  if (!p.type.startsWith('tuple')) return p.type;
  return `(${p.components.map(canonical).join(',')})${p.type.slice(5)}`;
}
for (const s of standard) for (const it of s.abi) add(it, s.name);
for (const p of precompiles) for (const it of p.abi) add(it, `Cosmos EVM ${p.name} precompile`);
for (const text of CURATED) add(parseAbiItem(text), 'common');
const signatures = [...items.values()];
for (const s of signatures) {
  // Check every entry has a selector viem can compute (a typo in the curated list fails here).
  if (s.type === 'event') toEventSelector(s);
  else toFunctionSelector(s.type === 'error' ? { ...s, type: 'function' } : s);
}
fs.mkdirSync(OUT, { recursive: true });
const write = (name, data) => fs.writeFileSync(path.join(OUT, name), JSON.stringify(data) + '\n');
write('precompiles.json', { from: 'cosmos/evm v0.3.2 precompiles/*/abi.json', precompiles });
write('standard.json', { from: 'viem erc20Abi, erc721Abi, erc1155Abi, erc4626Abi', standards: standard });
// The table at run time is standard.json, precompiles.json and these (the curated items not already there).
write('signatures.json', {
  from: 'a curated list (scripts/contracts/genAbis.mjs)',
  items: signatures.filter((s) => s.origin === 'common').map(({ origin: _o, ...s }) => s),
});
console.log(`precompiles: ${precompiles.length}, standard: ${standard.length}, signatures: ${signatures.length}`);
