"""The numbers Saul, Jaakkola & Jordan (1996) report: Figure 2, section 3, Tables 2 and 3.

They are written into our result tables (``paper_value`` columns) and used by
the claims (``bmrep.papers.saul1996.claims``), so they live here, below both.
"""

# Figure 2 caption: <ln(1+e^z)> for z ~ N(0,1), the minimum of bound (20) over xi, bound (20) at xi = 0.
PAPER_FIG2 = {"exact": 0.806, "min_bound": 0.818, "xi0_bound": 0.974}
# Section 3, Figure 5: mean relative error of the mean-field bound, RMS error of the uniform approximation.
PAPER_FIG5 = {"mean_mf_relative_error": 0.016, "rms_uniform_relative_error": 0.226}
# Table 2: test error rates on the paper's 8x8 USPS set.
PAPER_TABLE2 = {"nearest neighbour": 0.067, "back-propagation": 0.056, "wake-sleep": 0.048, "mean field": 0.046}
# Table 3: normalised log-likelihood score per digit 0..9, and over all digits.
PAPER_TABLE3 = [-0.447, -0.296, -0.636, -0.583, -0.574, -0.565, -0.515, -0.434, -0.569, -0.495]
PAPER_TABLE3_ALL = -0.511
