// The chai that interface-ipfs-core's tests expect from `aegir/chai`: chai 4 with the plugins its
// assertions use (promises, call-style terminals such as `.to.be.true()`, subsets, byte arrays,
// strings), registered once in this order (chai-parentheses must follow chai-as-promised).
import chai from 'chai';
import chaiAsPromised from 'chai-as-promised';
import chaiBites from 'chai-bites';
import chaiParentheses from 'chai-parentheses';
import chaiString from 'chai-string';
import chaiSubset from 'chai-subset';

chai.use(chaiAsPromised);
chai.use(chaiParentheses);
chai.use(chaiSubset);
chai.use(chaiBites);
chai.use(chaiString);

export const expect = chai.expect;
export const assert = chai.assert;
export { chai };
